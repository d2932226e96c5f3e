import { Client } from 'pg';
import { migrations } from '../migrations';

/**
 * The CLI's connection to the identity schema: the `pg` driver itself, so that a command loads
 * neither TypeORM nor @docintel/config's class-validator. What it shares with the services
 * (DATABASE_URL's default and rule, the wording of a connection failure, the migrations) is
 * held equal to them by database.spec.ts.
 */

const SCHEMA = 'identity';
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/docintel';

/**
 * The variables of CommonEnv besides DATABASE_URL. While none is set, loadConfig(CommonEnv) can
 * only fail on DATABASE_URL, so checking that one here answers the same; once one is set, the
 * environment is checked by loadConfig itself, as the services check it.
 */
export const OTHER_COMMON_VARIABLES = [
  'NATS_URL',
  'NATS_PREFIX',
  'LOG_LEVEL',
  'RPC_TIMEOUT_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'DATABASE_POOL_SIZE',
  'INSTANCE_ID',
];

/** DATABASE_URL as loadConfig(CommonEnv) reads it: unset or empty is the default; a bad one throws the same ConfigError message. */
export async function databaseUrl(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (OTHER_COMMON_VARIABLES.some((name) => env[name] !== undefined && env[name] !== '')) {
    await import('reflect-metadata');
    const { CommonEnv, loadConfig } = await import('@docintel/config');
    return loadConfig(CommonEnv, env).DATABASE_URL;
  }
  const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^postgres(ql)?:\/\/.+/.test(url))
    throw new Error(`Invalid configuration:\n  - DATABASE_URL (${JSON.stringify(url)}): must be a postgres:// connection URL`);
  return url;
}

/** The URL without its password, as @docintel/persistence's redactUrl writes it. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/**
 * Connects to the identity schema. When one of its migrations has not run yet (a database no
 * gateway has started on), they are run first the way every service runs its own, under the
 * advisory lock of @docintel/persistence; only then are TypeORM and the entities loaded.
 */
export async function connectIdentity(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000, options: `-c search_path=${SCHEMA}` });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    const reason = (err as Error).message || String(err);
    throw new Error(
      `Cannot reach PostgreSQL at ${redactUrl(url)} (${reason}). Start PostgreSQL, create the database, or set DATABASE_URL.`,
    );
  }
  try {
    if (await migrationsPending(client)) await migrate(url);
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

async function migrationsPending(client: Client): Promise<boolean> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [`"${SCHEMA}".migrations`]);
  if (!table.rows[0].present) return true;
  const done = await client.query<{ name: string }>(`SELECT name FROM "${SCHEMA}".migrations`);
  const ran = new Set(done.rows.map((r) => r.name));
  return migrations.some((M) => !ran.has(new M().name));
}

async function migrate(url: string): Promise<void> {
  await import('reflect-metadata');
  const { createDataSource, initializeDataSource } = await import('@docintel/persistence');
  const { identityEntities } = await import('../identity/identity.entities');
  const persistence = { url, schema: SCHEMA, entities: identityEntities, migrations, poolSize: 2 };
  const ds = await initializeDataSource(createDataSource(persistence), persistence);
  await ds.destroy();
}

import { createHash } from 'node:crypto';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';

export interface PersistenceOptions {
  url: string;
  /** The Postgres schema this service owns; its tables and migration history live there. */
  schema: string;
  entities: MixedList<Function | string | EntitySchema<any>>;
  migrations: MixedList<Function | string>;
  poolSize?: number;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

export function createDataSource(opts: PersistenceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // search_path makes the hand-written SQL of migrations land in the service's schema too.
    extra: { max: opts.poolSize ?? 10, connectionTimeoutMillis: 5000, options: `-c search_path=${opts.schema}` },
  });
}

/** A stable 63-bit key per schema for pg_advisory_lock. */
function lockKey(schema: string): string {
  return BigInt.asIntN(64, BigInt('0x' + createHash('sha256').update(`docintel:migrate:${schema}`).digest('hex').slice(0, 16))).toString();
}

/**
 * Connects, then creates the schema and runs pending migrations while holding an advisory lock,
 * so that replicas starting together migrate once. Fails with an actionable message when
 * Postgres cannot be reached.
 */
export async function initializeDataSource(ds: DataSource, opts: PersistenceOptions): Promise<DataSource> {
  try {
    await ds.initialize();
  } catch (err) {
    const reason = (err as Error).message || String(err);
    throw new Error(
      `Cannot reach PostgreSQL at ${redactUrl(opts.url)} (${reason}). Start PostgreSQL, create the database, or set DATABASE_URL.`,
    );
  }
  const runner = ds.createQueryRunner();
  await runner.connect();
  const key = lockKey(opts.schema);
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    await runner.release();
  }
  return ds;
}

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { connect } from 'nats';
import { Client } from 'pg';

/**
 * Where a test run finds Postgres and NATS. With a Docker engine, Testcontainers starts fresh
 * ones; without one (CI here), the services already running on localhost are used. Either way
 * each run gets its own database and its own subject/stream prefix, removed afterwards.
 */
export interface TestInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  teardown(): Promise<void>;
}

const LOCAL_PG = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

async function dockerAvailable(): Promise<boolean> {
  if (process.env.TEST_USE_DOCKER === '0') return false;
  try {
    await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Deletes every stream and key-value bucket whose name starts with the run's prefix. */
export async function deleteNatsPrefix(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const s of jsm.streams.list()) {
      const name = s.config.name;
      if (name.startsWith(`${prefix}_`) || name.startsWith(`KV_${prefix}_`) || name.startsWith(`OBJ_${prefix}_`)) {
        await jsm.streams.delete(name);
      }
    }
  } finally {
    await nc.close();
  }
}

export async function startTestInfrastructure(label = 'run'): Promise<TestInfrastructure> {
  const id = `${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const natsPrefix = `t_${id}`;
  const database = `docintel_test_${id}`;

  if (await dockerAvailable()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { NatsContainer } = await import('@testcontainers/nats');
    const pg = await new PostgreSqlContainer('postgres:15-alpine').withDatabase(database).start();
    const nats = await new NatsContainer('nats:2.10-alpine').withJetStream().start();
    return {
      databaseUrl: pg.getConnectionUri(),
      natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
      natsPrefix,
      teardown: async () => {
        await nats.stop();
        await pg.stop();
      },
    };
  }

  await createDatabase(LOCAL_PG, database);
  return {
    databaseUrl: withDatabase(LOCAL_PG, database),
    natsUrl: LOCAL_NATS,
    natsPrefix,
    teardown: async () => {
      await deleteNatsPrefix(LOCAL_NATS, natsPrefix).catch(() => undefined);
      await dropDatabase(LOCAL_PG, database);
    },
  };
}

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { connect } from 'nats';
import { Client } from 'pg';

/**
 * Where a test run finds Postgres and NATS. By default the services already running on localhost
 * are used; with TEST_USE_DOCKER=1 Testcontainers starts fresh ones from TEST_POSTGRES_IMAGE and
 * TEST_NATS_IMAGE (npm run test:containers builds local images and sets both). Either way each
 * run gets its own database and its own subject/stream prefix, removed afterwards.
 *
 * Testcontainers is opt-in, not picked whenever a Docker engine answers: an engine started for
 * something else (or one that cannot reach a registry) must not change what `npm test` runs.
 */
export interface TestInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  teardown(): Promise<void>;
}

const LOCAL_PG = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** The images Testcontainers starts, each with the variable that names another one. */
export const TEST_IMAGES = {
  postgres: { variable: 'TEST_POSTGRES_IMAGE', fallback: 'postgres:15-alpine' },
  nats: { variable: 'TEST_NATS_IMAGE', fallback: 'nats:2.10-alpine' },
  minio: { variable: 'TEST_MINIO_IMAGE', fallback: 'minio/minio:RELEASE.2024-12-13T22-19-12Z' },
} as const;
export type TestImage = keyof typeof TEST_IMAGES;

export function testImage(kind: TestImage, env: NodeJS.ProcessEnv = process.env): string {
  const { variable, fallback } = TEST_IMAGES[kind];
  return env[variable] || fallback;
}

/** True when the run asked for Testcontainers (TEST_USE_DOCKER=1). */
export function useTestcontainers(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TEST_USE_DOCKER === '1';
}

/** One docker CLI call: resolves with its output, or with ok false and what it printed on failure. */
export type DockerCli = (args: string[], timeoutMs: number) => Promise<{ ok: boolean; output: string }>;

export const dockerCli: DockerCli = async (args, timeoutMs) => {
  try {
    const { stdout } = await promisify(execFile)(process.env.DOCKER_CLI ?? 'docker', args, { timeout: timeoutMs });
    return { ok: true, output: stdout };
  } catch (err) {
    const e = err as { stderr?: string; message: string; killed?: boolean };
    return { ok: false, output: e.killed ? `no answer within ${timeoutMs} ms` : e.stderr || e.message };
  }
};

/** An image the engine lacks and could not pull: the message says which and what to do. */
export class MissingTestImageError extends Error {
  constructor(
    readonly image: string,
    readonly variable: string,
    reason: string,
  ) {
    super(
      `Testcontainers needs the image ${image}, which the Docker engine does not have and could not pull ` +
        `(${firstLine(reason)}). Build the local test images with \`npm run test:containers\` ` +
        `(or \`bash scripts/test-containers.sh --images\`), set ${variable} to an image the engine has ` +
        `(docker images), or leave TEST_USE_DOCKER unset to use the PostgreSQL and NATS on localhost.`,
    );
    this.name = 'MissingTestImageError';
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n').filter(Boolean).pop() ?? 'no reason given';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/** Throws unless a Docker engine answers, naming the way back to local services. */
export async function assertDockerEngine(docker: DockerCli = dockerCli): Promise<void> {
  const info = await docker(['info', '--format', '{{.ServerVersion}}'], 10_000);
  if (!info.ok) {
    throw new Error(
      `TEST_USE_DOCKER=1 but no Docker engine answers (docker info: ${firstLine(info.output)}). ` +
        'Start one (`bash scripts/test-containers.sh --engine` installs and starts it) or leave TEST_USE_DOCKER unset.',
    );
  }
}

/**
 * Makes sure the engine has the image before Testcontainers starts it: present, or pulled now.
 * Without this a missing image surfaces as the registry's own error (often a DNS failure), which
 * says nothing about which image or what to do.
 */
export async function ensureTestImage(image: string, variable: string, docker: DockerCli = dockerCli): Promise<void> {
  if ((await docker(['image', 'inspect', '--format', '{{.Id}}', image], 30_000)).ok) return;
  const pull = await docker(['pull', '--quiet', image], 300_000);
  if (!pull.ok) throw new MissingTestImageError(image, variable, pull.output);
}

const REAPER_IMAGE = 'testcontainers/ryuk:0.14.0';

/**
 * Testcontainers' reaper (Ryuk) removes containers a crashed run leaves behind; it is an image of
 * its own. Where the engine lacks it and cannot pull it, the run goes without (teardown() and
 * scripts/test-containers.sh remove the containers) rather than failing on the pull.
 */
async function reaperOrNone(docker: DockerCli): Promise<void> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED === 'true') return;
  try {
    await ensureTestImage(process.env.RYUK_CONTAINER_IMAGE ?? REAPER_IMAGE, 'RYUK_CONTAINER_IMAGE', docker);
  } catch {
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  }
}

/** Labels on every container of a run, so that a script can remove what a crashed run left. */
export function testContainerLabels(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { 'docintel.test': 'true', ...(env.TEST_RUN_ID ? { 'docintel.test-run': env.TEST_RUN_ID } : {}) };
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

async function startContainers(database: string, natsPrefix: string): Promise<TestInfrastructure> {
  await assertDockerEngine();
  const postgresImage = testImage('postgres');
  const natsImage = testImage('nats');
  await ensureTestImage(postgresImage, TEST_IMAGES.postgres.variable);
  await ensureTestImage(natsImage, TEST_IMAGES.nats.variable);
  await reaperOrNone(dockerCli);

  const { GenericContainer, Wait } = await import('testcontainers');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const labels = testContainerLabels();
  const [pg, nats] = await Promise.all([
    new PostgreSqlContainer(postgresImage).withDatabase(database).withLabels(labels).start(),
    // Not @testcontainers/nats: it always sets a user and password, and the apps' NATS_URL carries none.
    new GenericContainer(natsImage)
      .withCommand(['--jetstream'])
      .withExposedPorts(4222)
      .withLabels(labels)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start(),
  ]);
  return {
    databaseUrl: pg.getConnectionUri(),
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    natsPrefix,
    teardown: async () => {
      await Promise.all([nats.stop(), pg.stop()]);
    },
  };
}

export async function startTestInfrastructure(label = 'run'): Promise<TestInfrastructure> {
  const id = `${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const natsPrefix = `t_${id}`;
  const database = `docintel_test_${id}`;

  if (useTestcontainers()) return startContainers(database, natsPrefix);

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

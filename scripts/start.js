#!/usr/bin/env node
/*
 * Runs docintel on one machine: checks Postgres and NATS (starting them in containers where they
 * are missing and a container engine answers, else saying what to install), starts the four services and the
 * gateway as separate processes, prints the API URL and a development token, keeps them running
 * (a service that crashes, or whose /health/live fails several times in a row, is restarted with
 * back-off, see scripts/supervisor.js) and stops them
 * all together on Ctrl-C / SIGTERM.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { Client } = require('pg');
const {
  MIN_POSTGRES_VERSION_NUM,
  containerArgs,
  containerEngine,
  platformOf,
  probeNats,
  probePostgres,
  redact,
  remedy,
} = require('./services');
const { Supervisor, backoffFromEnv, livenessFromEnv } = require('./supervisor');

const root = join(__dirname, '..');
const SERVICES = ['storage-service', 'indexing-service', 'job-orchestrator', 'rules-engine'];
// The processes that stream file bytes run with an 8 MB young generation (V8's default grows to
// 16 MB): ~15 MB less peak RSS for the same throughput. 4 MB would save ~10 MB more but makes V8
// run a full collection every ~100 ms during a transfer and doubles its CPU (docs/storage.md).
const BYTE_STREAMERS = ['api-gateway', 'storage-service'];
const STREAMER_NODE_OPTIONS = '--max-semi-space-size=8';
// indexing-service allocates from many threads (parsers, the embedder, OCR); glibc would give each
// its own malloc arena, memory returned to none of them (docs/pipeline.md, "Memory").
const ARENA_LIMITED = ['indexing-service'];

/** The environment every process gets: defaults, then the caller's non-empty variables. */
function launchEnv(processEnv = process.env) {
  const env = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/docintel',
    NATS_URL: 'nats://127.0.0.1:4222',
    PORT: '8080',
    ...Object.fromEntries(Object.entries(processEnv).filter(([, v]) => v !== '')),
  };
  const gatewayPort = Number(env.PORT);
  const servicePortBase = Number(env.SERVICE_PORT_BASE || gatewayPort + 1);
  // File bytes go from the gateway to storage over HTTP; LOCAL presigned URLs point at the gateway.
  env.STORAGE_SERVICE_URL ??= `http://127.0.0.1:${servicePortBase + SERVICES.indexOf('storage-service')}`;
  env.PUBLIC_URL ??= `http://127.0.0.1:${gatewayPort}`;
  return { env, gatewayPort, servicePortBase };
}

/**
 * What the supervisor starts: the four services on servicePortBase + 0..3, then the gateway on
 * gatewayPort, each `node apps/<name>/dist/main.js` with readiness at /health/ready and liveness
 * (event-loop delay) at /health/live.
 */
function appSpecs({ env, gatewayPort, servicePortBase }, { stdio = ['ignore', 'inherit', 'inherit'] } = {}) {
  const ports = [...SERVICES.map((name, i) => [name, servicePortBase + i]), ['api-gateway', gatewayPort]];
  return ports.map(([name, port]) => {
    const nodeOptions = BYTE_STREAMERS.includes(name) ? `${STREAMER_NODE_OPTIONS} ${env.NODE_OPTIONS || ''}`.trim() : env.NODE_OPTIONS;
    return {
      name,
      port,
      command: process.execPath,
      args: [join(root, 'apps', name, 'dist', 'main.js')],
      cwd: root,
      env: {
        ...env,
        PORT: String(port),
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
        ...(ARENA_LIMITED.includes(name) ? { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' } : {}),
      },
      stdio,
      readyUrl: `http://127.0.0.1:${port}/health/ready`,
      liveUrl: `http://127.0.0.1:${port}/health/live`,
    };
  });
}

function fail(message) {
  process.stderr.write(`\ndocintel cannot start: ${message}\n\n`);
  process.exit(1);
}

const isLocal = (url) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url.split(',')[0]).hostname);

/**
 * A server that does not answer: where it would run on this machine and a container engine
 * answers, it is started in a container (DOCINTEL_START_CONTAINERS=0 only prints the command);
 * otherwise docintel stops with the exact commands that install it on this platform.
 */
async function provide(kind, url, probe, env) {
  const found = await probe(url);
  if (found.ok) return found;
  const what = kind === 'postgres' ? 'PostgreSQL' : 'NATS with JetStream';
  const shown = kind === 'postgres' ? redact(url) : url;
  if (found.jetstream === false) fail(`NATS at ${url} has no JetStream (${found.error}). Start nats-server with -js.`);
  const engine = isLocal(url) ? containerEngine() : null;
  const dockerArgs = engine ? containerArgs(kind, url) : undefined;
  const why = `${what} is not reachable at ${shown} (${found.error}).`;
  if (!engine || env.DOCINTEL_START_CONTAINERS === '0')
    fail(`${why}\n${remedy(kind, { engine, platform: platformOf(), dockerArgs, url })}`);
  process.stdout.write(`${why} Starting it: docker ${dockerArgs.join(' ')}\n`);
  const name = dockerArgs[dockerArgs.indexOf('--name') + 1];
  try {
    // A container left from an earlier run is started again rather than created twice.
    execFileSync('docker', ['start', name], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('docker', dockerArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (err) {
      fail(`${why}\nStarting it in a container failed (${err.message}).\n${remedy(kind, { engine: null, platform: platformOf(), url })}`);
    }
  }
  const deadline = Date.now() + Number(env.DOCINTEL_CONTAINER_WAIT_MS || 60_000);
  for (;;) {
    const again = await probe(url);
    if (again.ok) return again;
    if (Date.now() > deadline)
      fail(`${what} was started in the container ${name} but does not answer at ${shown} (${again.error}); see docker logs ${name}.`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function checkPostgres(env) {
  const found = await provide('postgres', env.DATABASE_URL, probePostgres, env);
  if (found.num < MIN_POSTGRES_VERSION_NUM)
    fail(`PostgreSQL ${found.version} at ${redact(env.DATABASE_URL)} is too old: 15 or newer is needed.`);
  if (!found.missingDatabase) return;
  // The server answers but the database is missing: create it, as a first run would expect.
  const db = new URL(env.DATABASE_URL).pathname.slice(1) || 'postgres';
  const adminUrl = new URL(env.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${db.replace(/"/g, '""')}"`);
    await admin.end();
    process.stdout.write(`Created database ${db}\n`);
  } catch (e) {
    fail(`database ${db} does not exist and could not be created (${e.message}). Create it or set DATABASE_URL.`);
  }
}

async function checkNats(env) {
  await provide('nats', env.NATS_URL, probeNats, env);
}

async function main() {
  const launch = launchEnv();
  const { env, gatewayPort } = launch;
  let backoff;
  let liveness;
  try {
    backoff = backoffFromEnv(env);
    liveness = livenessFromEnv(env);
  } catch (err) {
    fail(err.message);
  }
  await checkPostgres(env);
  await checkNats(env);

  // Restarts begin once everything has started once: a service that cannot start at all has a
  // configuration problem, which its log names, and restarting it would only repeat that.
  const supervisor = new Supervisor({ ...backoff, ...liveness, restart: false });
  let startedUp = false;
  let stopping = false;
  const stop = (code, why) => {
    if (stopping) return;
    stopping = true;
    if (why) process.stderr.write(`\n${why}\n`);
    void supervisor.stop().then(({ clean }) => process.exit(code || (clean ? 0 : 1)));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) {
        // A second Ctrl-C does not wait for the graceful shutdown.
        supervisor.killAll();
        process.exit(130);
      }
      stop(0);
    });
  }
  process.once('exit', () => supervisor.killAll());
  supervisor.on('start', ({ name, pid, restarts }) => {
    if (restarts === 0) process.stderr.write(`[supervisor] started ${name} (pid ${pid})\n`);
  });
  supervisor.on('exit', ({ name, code, signal, expected }) => {
    if (!expected && !startedUp) stop(1, `${name} exited (${signal || code}) while docintel was starting; stopping docintel.`);
  });

  const specs = appSpecs(launch);
  const services = specs.filter((s) => s.name !== 'api-gateway');
  for (const spec of services) supervisor.start(spec);
  try {
    await Promise.all(services.map((s) => supervisor.whenReady(s.name)));
    supervisor.start(specs.find((s) => s.name === 'api-gateway'));
    await supervisor.whenReady('api-gateway');
  } catch (err) {
    if (stopping) return;
    stop(1, `docintel cannot start: ${err.message}`);
    return;
  }
  if (stopping) return;
  startedUp = true;
  supervisor.enableRestarts();

  // The banner (URL, API docs, development token) is the CLI's `welcome` command, which the
  // compose `welcome` service prints too: one text for both.
  const url = `http://127.0.0.1:${gatewayPort}`;
  let banner;
  try {
    banner = execFileSync(
      process.execPath,
      [
        join(root, 'apps/api-gateway/dist/cli/main.js'),
        'welcome',
        '--url',
        url,
        ...(env.DEV_TOKEN_FILE ? ['--file', env.DEV_TOKEN_FILE] : []),
      ],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
    ).toString();
  } catch (err) {
    stop(1, `docintel cannot start: the development token could not be created (${err.message})`);
    return;
  }
  process.stdout.write(banner);
}

if (require.main === module) main().catch((err) => fail(err.message));

module.exports = { SERVICES, launchEnv, appSpecs };

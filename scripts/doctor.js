/*
 * `npm run docintel -- doctor`: checks everything `npm start` needs, with the same environment
 * variables and defaults, and prints what to do about each problem. Exits 1 when anything
 * `npm start` cannot do without fails; warnings (pgvector, the console) do not count.
 */
'use strict';
const { accessSync, constants, existsSync, statSync } = require('node:fs');
const { createServer } = require('node:net');
const { dirname, join, resolve } = require('node:path');
const { launchEnv, SERVICES } = require('./start');
const services = require('./services');

const root = join(__dirname, '..');
const MIN_NODE = [20, 19];
const APPS = [...SERVICES, 'api-gateway'];

const ok = (name, detail) => ({ name, status: 'ok', detail });
const warn = (name, detail, fix) => ({ name, status: 'warn', detail, fix });
const fail = (name, detail, fix) => ({ name, status: 'fail', detail, fix });

function checkNode(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  const enough = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  const wanted = `${MIN_NODE.join('.')}+`;
  return enough
    ? ok('Node.js', `${version} (${wanted} needed)`)
    : fail(
        'Node.js',
        `${version} is too old (${wanted} needed)`,
        'install Node.js 20.19+ or 22 (https://nodejs.org/en/download, or nvm install 22)',
      );
}

function checkBuild(dir = root) {
  const missing = [...APPS.map((a) => `apps/${a}/dist/main.js`), 'apps/api-gateway/dist/cli/main.js'].filter(
    (f) => !existsSync(join(dir, f)),
  );
  const results = [
    missing.length
      ? fail('build', `missing ${missing.join(', ')}`, 'run `npm run build` (or `npm start`, which builds first)')
      : ok('build', 'every app is built'),
  ];
  if (!existsSync(join(dir, 'apps/console/dist/index.html'))) {
    results.push(
      warn('web console', 'apps/console/dist is not built: the API works, the console page says to build it', 'run `npm run build`'),
    );
  }
  return results;
}

async function checkPostgres(databaseUrl, engine = services.containerEngine, platform = services.platformOf()) {
  const found = await services.probePostgres(databaseUrl);
  const name = 'PostgreSQL';
  if (!found.ok) {
    const hasEngine = engine();
    const fix = services.remedy('postgres', {
      engine: hasEngine,
      platform,
      dockerArgs: hasEngine ? services.containerArgs('postgres', databaseUrl) : undefined,
    });
    return [fail(name, `not reachable at ${services.redact(databaseUrl)} (${found.error})`, fix)];
  }
  const results = [];
  if (found.num < services.MIN_POSTGRES_VERSION_NUM) {
    results.push(
      fail(
        name,
        `version ${found.version}: 15 or newer is needed`,
        'upgrade PostgreSQL to 15+ (or run postgres:16 in a container) and point DATABASE_URL at it',
      ),
    );
  } else {
    const db = found.missingDatabase ? '; the database does not exist yet, `npm start` creates it' : '';
    results.push(ok(name, `${found.version} at ${services.redact(databaseUrl)}${db}`));
  }
  results.push(
    found.vector
      ? ok('pgvector', 'available: vectors are searched with HNSW')
      : warn(
          'pgvector',
          'not installed (optional): vectors are stored as bytea and searched by exact scan',
          'install the extension for your PostgreSQL (Debian: postgresql-<version>-pgvector; macOS: brew install pgvector), see docs/deployment.md#pgvector',
        ),
  );
  return results;
}

async function checkNats(natsUrl, engine = services.containerEngine, platform = services.platformOf()) {
  const found = await services.probeNats(natsUrl);
  if (found.ok) return [ok('NATS', `${found.version ?? 'server'} at ${natsUrl} with JetStream`)];
  if (found.jetstream === false)
    return [fail('NATS', `${natsUrl} answers without JetStream (${found.error})`, 'restart nats-server with -js (JetStream)')];
  const hasEngine = engine();
  return [
    fail(
      'NATS',
      `not reachable at ${natsUrl} (${found.error})`,
      services.remedy('nats', {
        engine: hasEngine,
        platform,
        url: natsUrl,
        dockerArgs: hasEngine ? services.containerArgs('nats', natsUrl) : undefined,
      }),
    ),
  ];
}

/** The storage root, or the nearest folder above it that exists, must be writable. */
function checkStorageRoot(storageRoot) {
  let dir = resolve(root, storageRoot);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
    return ok('storage root', `${resolve(root, storageRoot)} is writable`);
  } catch (err) {
    return fail(
      'storage root',
      `${resolve(root, storageRoot)} cannot be written (${err.code} on ${dir})`,
      'set STORAGE_ROOT to a folder you can write, or PROVIDERS_FILE (docs/storage.md)',
    );
  }
}

function portFree(port, host) {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', (err) => res(err.code));
    srv.listen(port, host, () => srv.close(() => res(null)));
  });
}

async function checkPorts(ports, host = '127.0.0.1') {
  const busy = [];
  for (const port of ports) {
    const why = await portFree(port, host);
    if (why) busy.push(`${port} (${why})`);
  }
  return busy.length
    ? fail(
        'ports',
        `in use on ${host}: ${busy.join(', ')}`,
        'stop what listens there (is docintel running already?) or set PORT / SERVICE_PORT_BASE',
      )
    : ok('ports', `${ports.join(', ')} free on ${host}`);
}

async function runChecks(processEnv = process.env) {
  const { env, gatewayPort, servicePortBase } = launchEnv(processEnv);
  const ports = [gatewayPort, ...SERVICES.map((_, i) => servicePortBase + i)];
  return [
    checkNode(),
    ...checkBuild(),
    ...(await checkPostgres(env.DATABASE_URL)),
    ...(await checkNats(env.NATS_URL)),
    checkStorageRoot(env.STORAGE_ROOT || './data/storage'),
    await checkPorts(ports, env.HOST || '127.0.0.1'),
  ];
}

function report(results) {
  const mark = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
  return results
    .map((r) => `${mark[r.status]}  ${r.name}: ${r.detail}${r.fix ? `\n      what to do: ${r.fix.split('\n').join('\n      ')}` : ''}`)
    .join('\n');
}

async function main() {
  const results = await runChecks();
  const failed = results.filter((r) => r.status === 'fail');
  process.stdout.write(
    `${report(results)}\n\n${failed.length ? `${failed.length} problem(s): npm start cannot run until they are fixed.` : 'Everything npm start needs is here.'}\n`,
  );
  return failed.length ? 1 : 0;
}

module.exports = { main, runChecks, checkNode, checkBuild, checkPostgres, checkNats, checkStorageRoot, checkPorts, report };

'use strict';
/*
 * `npm run docintel -- doctor` and what `npm start` does about a missing server: the checks against
 * the real PostgreSQL and NATS of this machine, and against closed ports; start.js with a container
 * engine that answers (a stand-in `docker` on PATH that records what it is asked) and without one.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { PG_ADMIN_URL } = require('../../bench/lib/infra');
const { checkBuild, checkNats, checkNode, checkPorts, checkPostgres, checkStorageRoot } = require('../doctor');
const { containerArgs, remedy } = require('../services');

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const noEngine = () => null;

/** A port that nothing listens on: bound, then released. */
function closedPort() {
  return new Promise((res) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

test('Node.js must be 20.19 or newer', () => {
  assert.equal(checkNode('20.19.0').status, 'ok');
  assert.equal(checkNode('22.1.0').status, 'ok');
  const old = checkNode('20.11.1');
  assert.equal(old.status, 'fail');
  assert.match(old.fix, /Node\.js 20\.19\+/);
});

test('a checkout without a build is told to run npm run build', () => {
  const empty = mkdtempSync(join(tmpdir(), 'docintel-doctor-'));
  try {
    const [build, consoleBuild] = checkBuild(empty);
    assert.equal(build.status, 'fail');
    assert.match(build.detail, /apps\/api-gateway\/dist\/cli\/main\.js/);
    assert.match(build.fix, /npm run build/);
    assert.equal(consoleBuild.status, 'warn');
  } finally {
    rmSync(empty, { recursive: true });
  }
});

test("this machine's PostgreSQL is 15 or newer; a database that does not exist yet is fine", async () => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = '/docintel_doctor_never_created';
  const [pg, vector] = await checkPostgres(url.toString(), noEngine);
  assert.equal(pg.status, 'ok', pg.detail);
  assert.match(pg.detail, /npm start` creates it/);
  assert.equal(vector.name, 'pgvector');
  assert.notEqual(vector.status, 'fail');
});

test('PostgreSQL on a closed port fails with the commands to install it, or to run it in a container', async () => {
  const url = `postgres://postgres@127.0.0.1:${await closedPort()}/docintel`;
  const [debian] = await checkPostgres(url, noEngine, 'debian');
  assert.equal(debian.status, 'fail');
  assert.match(debian.detail, /not reachable/);
  assert.match(debian.fix, /sudo apt-get install -y postgresql/);
  const [mac] = await checkPostgres(url, noEngine, 'macos');
  assert.match(mac.fix, /brew install postgresql@16/);
  assert.match(remedy('postgres', { engine: 'docker', platform: 'debian' }), /docker run -d --name docintel-postgres .* postgres:16/);
});

test("this machine's NATS has JetStream; a closed port fails with what to do", async () => {
  const [nats] = await checkNats(NATS_URL, noEngine);
  assert.equal(nats.status, 'ok', nats.detail);
  const port = await closedPort();
  const [closed] = await checkNats(`nats://127.0.0.1:${port}`, noEngine, 'debian');
  assert.equal(closed.status, 'fail');
  // The server it says to start listens where NATS_URL looks.
  assert.match(closed.fix, new RegExp(`nats-server -a 127\\.0\\.0\\.1 -p ${port} -js`));
  assert.match(remedy('nats', { engine: 'docker', platform: 'debian' }), /docker run -d --name docintel-nats .* nats:2 -js/);
});

test('the storage root must be writable', () => {
  assert.equal(checkStorageRoot(join(tmpdir(), 'docintel-doctor', 'storage')).status, 'ok');
  // Below a regular file nothing can be created, whoever runs the check.
  const file = join(mkdtempSync(join(tmpdir(), 'docintel-doctor-')), 'a-file');
  writeFileSync(file, '');
  const blocked = checkStorageRoot(join(file, 'storage'));
  assert.equal(blocked.status, 'fail');
  assert.match(blocked.fix, /STORAGE_ROOT/);
});

test('a port in use is named; free ports pass', async () => {
  const srv = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const busy = srv.address().port;
  try {
    const result = await checkPorts([busy, await closedPort()]);
    assert.equal(result.status, 'fail');
    assert.match(result.detail, new RegExp(`${busy} \\(EADDRINUSE\\)`));
    assert.equal((await checkPorts([await closedPort()])).status, 'ok');
  } finally {
    srv.close();
  }
});

/** Runs scripts/start.js with a `docker` stand-in first on PATH; resolves with its exit code and output. */
async function startWithDocker(script, env) {
  const bin = mkdtempSync(join(tmpdir(), 'docintel-fake-docker-'));
  const log = join(bin, 'calls');
  writeFileSync(join(bin, 'docker'), `#!/bin/sh\necho "$*" >> ${log}\n${script}\n`);
  chmodSync(join(bin, 'docker'), 0o755);
  const result = await new Promise((res) => {
    execFile(
      process.execPath,
      [join(__dirname, '..', 'start.js')],
      { env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => res({ code: err ? err.code : 0, output: stdout + stderr }),
    );
  });
  let calls = '';
  try {
    calls = readFileSync(log, 'utf8');
  } catch {
    /* never called */
  }
  rmSync(bin, { recursive: true });
  return { ...result, calls };
}

test('npm start without PostgreSQL and without a container engine stops with the install commands', async () => {
  const { code, output, calls } = await startWithDocker('exit 1', {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/docintel`,
  });
  assert.equal(code, 1);
  assert.match(output, /PostgreSQL is not reachable/);
  assert.match(output, /install and start it|install PostgreSQL/);
  assert.equal(calls, 'info\n');
});

test('npm start without PostgreSQL starts it in a container where an engine answers', async () => {
  // The stand-in answers `info` and `run` but starts nothing, so start.js gives up after its wait.
  const port = await closedPort();
  const { code, output, calls } = await startWithDocker('case "$1" in start) exit 1;; images) exit 0;; esac; exit 0', {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/docintel`,
    DOCINTEL_CONTAINER_WAIT_MS: '1500',
  });
  // Published on the port DATABASE_URL names, so that the container is the server it reaches.
  assert.match(
    calls,
    new RegExp(`^run -d --name docintel-postgres -p 127\\.0\\.0\\.1:${port}:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16$`, 'm'),
  );
  assert.match(output, /Starting it: docker run -d --name docintel-postgres/);
  assert.equal(code, 1);
  assert.match(output, /started in the container docintel-postgres but does not answer/);
});

test('DOCINTEL_START_CONTAINERS=0 only prints the docker run command', async () => {
  const port = await closedPort();
  // DATABASE_URL names a database that exists, so that start.js creates none on this machine's server.
  const { code, output, calls } = await startWithDocker('exit 0', {
    DATABASE_URL: PG_ADMIN_URL,
    NATS_URL: `nats://127.0.0.1:${port}`,
    DOCINTEL_START_CONTAINERS: '0',
  });
  assert.equal(code, 1);
  assert.match(output, /NATS with JetStream is not reachable/);
  assert.match(output, new RegExp(`docker run -d --name docintel-nats -p 127\\.0\\.0\\.1:${port}:4222 nats:2 -js`));
  assert.doesNotMatch(calls, /^run/m);
});

test('npm start without NATS and without a container engine stops with the install commands', async () => {
  const { code, output, calls } = await startWithDocker('exit 1', {
    DATABASE_URL: PG_ADMIN_URL,
    NATS_URL: `nats://127.0.0.1:${await closedPort()}`,
  });
  assert.equal(code, 1);
  assert.match(output, /NATS with JetStream is not reachable/);
  assert.match(output, /sudo apt-get install -y nats-server|brew install nats-server|install nats-server 2\.9 or newer/);
  assert.match(output, /or point NATS_URL at a server that runs/);
  assert.equal(calls, 'info\n');
});

test('the container runs the server the URL names: its port, and a user other than postgres', () => {
  const noLocalImage = () => {
    throw new Error('no engine in this test');
  };
  assert.deepEqual(containerArgs('postgres', 'postgres://postgres@127.0.0.1:5432/docintel', noLocalImage), [
    ...['run', '-d', '--name', 'docintel-postgres', '-p', '127.0.0.1:5432:5432', '-e', 'POSTGRES_HOST_AUTH_METHOD=trust', 'postgres:16'],
  ]);
  assert.deepEqual(containerArgs('postgres', 'postgres://docintel:secret@localhost:5433/docintel', noLocalImage), [
    ...['run', '-d', '--name', 'docintel-postgres', '-p', '127.0.0.1:5433:5432', '-e', 'POSTGRES_HOST_AUTH_METHOD=trust'],
    ...['-e', 'POSTGRES_USER=docintel', 'postgres:16'],
  ]);
  assert.deepEqual(containerArgs('postgres', 'postgres://127.0.0.1/docintel', noLocalImage).slice(4, 6), ['-p', '127.0.0.1:5432:5432']);
  assert.deepEqual(containerArgs('nats', 'nats://127.0.0.1:4333,nats://127.0.0.1:4334', noLocalImage), [
    ...['run', '-d', '--name', 'docintel-nats', '-p', '127.0.0.1:4333:4222', 'nats:2', '-js'],
  ]);
  assert.deepEqual(containerArgs('nats', 'nats://localhost', noLocalImage).slice(4, 6), ['-p', '127.0.0.1:4222:4222']);
});

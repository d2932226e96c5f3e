'use strict';
/*
 * npm start supervises: scripts/start.js with the real built services (npm run build first), on
 * its own database, NATS prefix and ports. kill -9 of indexing-service brings it back while the
 * gateway keeps answering and the other services keep their pids; SIGTERM then stops everything
 * with exit code 0.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { deleteNatsPrefix, PG_ADMIN_URL } = require('../../bench/lib/infra');
const { consecutiveFreePorts } = require('../../bench/lib/ports');

const START = join(__dirname, '..', 'start.js');
const SERVICES = ['storage-service', 'indexing-service', 'job-orchestrator', 'rules-engine'];

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(label, fn, timeoutMs, logs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${label}; output so far:\n${logs().slice(-6000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function get(url, token) {
  try {
    const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    return err.name;
  }
}

test('npm start restarts a killed service and stops everything on SIGTERM', { timeout: 240_000 }, async (t) => {
  const id = randomBytes(4).toString('hex');
  const database = `docintel_test_start_${id}`;
  const natsPrefix = `test_start_${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'docintel-start-'));
  const base = await consecutiveFreePorts(SERVICES.length + 1);
  const gatewayPort = base;
  const portOf = (name) => base + 1 + SERVICES.indexOf(name);
  const databaseUrl = new URL(PG_ADMIN_URL);
  databaseUrl.pathname = `/${database}`;

  const child = spawn(process.execPath, [START], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      NATS_PREFIX: natsPrefix,
      PORT: String(gatewayPort),
      SERVICE_PORT_BASE: String(base + 1),
      STORAGE_ROOT: join(dir, 'storage'),
      DEV_TOKEN_FILE: join(dir, 'dev-token'),
      LOG_LEVEL: 'warn',
      RESTART_DELAY_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const startedPids = () =>
    Object.fromEntries([...output.matchAll(/\[supervisor\] started (\S+) \(pid (\d+)\)/g)].map((m) => [m[1], Number(m[2])]));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const pid of Object.values(startedPids())) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const m of output.matchAll(/restarted \(pid (\d+)/g)) if (alive(Number(m[1]))) process.kill(Number(m[1]), 'SIGKILL');
    await deleteNatsPrefix(natsPrefix).catch(() => {});
    const admin = new Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() => admin.end());
    rmSync(dir, { recursive: true, force: true });
  });

  const token = await until(
    'docintel to start',
    () => /Development token[^\n]*\n\s+(dit_\S+)/.exec(output)?.[1],
    120_000,
    () => output,
  );
  assert.match(output, new RegExp(`Created database ${database}`));
  const pids = startedPids();
  assert.deepEqual(Object.keys(pids).sort(), [...SERVICES, 'api-gateway'].sort());
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  assert.equal(await get(`${gateway}/api/core/providers`, token), 200);

  // kill -9 of indexing-service: it comes back on its port; meanwhile the gateway keeps answering.
  const killed = pids['indexing-service'];
  process.kill(killed, 'SIGKILL');
  const gatewayAnswers = [];
  const back = await until(
    'indexing-service to be restarted and ready',
    async () => {
      gatewayAnswers.push(await get(`${gateway}/api/core/providers`, token));
      return /indexing-service is ready again \(pid (\d+), restart 1\)/.exec(output);
    },
    60_000,
    () => output,
  );
  const restartedPid = Number(back[1]);
  assert.match(
    output,
    new RegExp(`indexing-service \\(pid ${killed}\\) exited with signal SIGKILL after [\\d.]+ s; restarting it in 0\\.5 s`),
  );
  assert.notEqual(restartedPid, killed);
  assert.equal(alive(killed), false);
  assert.equal(await get(`http://127.0.0.1:${portOf('indexing-service')}/health/live`), 200);
  assert.ok(gatewayAnswers.length > 0 && gatewayAnswers.every((s) => s === 200), `gateway answered ${gatewayAnswers.join(', ')}`);
  const providers = await fetch(`${gateway}/api/core/providers`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
  const files = `${gateway}/api/core/files?providerId=${providers.data[0].id.id}&page=0&pageSize=1`;
  assert.equal(await get(files, token), 200, 'the gateway reaches the restarted indexing-service');
  for (const name of [...SERVICES, 'api-gateway'].filter((n) => n !== 'indexing-service')) {
    assert.ok(alive(pids[name]), `${name} (pid ${pids[name]}) still runs`);
    assert.doesNotMatch(output, new RegExp(`${name} restarted`));
  }

  // SIGTERM: everything stops, gracefully, exit code 0, and nothing is restarted.
  child.kill('SIGTERM');
  const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 40_000).unref())]);
  assert.deepEqual(result, { code: 0, signal: null }, output.slice(-4000));
  const all = [...Object.values(pids).filter((p) => p !== killed), restartedPid];
  assert.deepEqual(
    all.filter((p) => alive(p)),
    [],
  );
  assert.doesNotMatch(output.slice(output.indexOf('ready again')), /restarting it in/);
});

test('a service that cannot start stops npm start with exit code 1 and no restarts', { timeout: 120_000 }, async () => {
  const base = await consecutiveFreePorts(SERVICES.length + 1);
  const dir = mkdtempSync(join(tmpdir(), 'docintel-start-'));
  try {
    // An invalid variable: every service refuses to start, naming it.
    const child = spawn(process.execPath, [START], {
      env: {
        ...process.env,
        DATABASE_URL: PG_ADMIN_URL,
        PORT: String(base),
        SERVICE_PORT_BASE: String(base + 1),
        STORAGE_ROOT: join(dir, 'storage'),
        DEV_TOKEN_FILE: join(dir, 'dev-token'),
        RPC_TIMEOUT_MS: 'soon',
        RESTART_DELAY_MS: '100',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const [code] = await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(() => r(['timeout']), 90_000).unref())]);
    if (code === 'timeout') child.kill('SIGKILL');
    assert.equal(code, 1, output.slice(-3000));
    assert.match(output, /RPC_TIMEOUT_MS/);
    assert.match(output, /exited \(1\) while docintel was starting; stopping docintel\./);
    assert.doesNotMatch(output, /restarting it in|docintel is running/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

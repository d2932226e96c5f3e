'use strict';
/* The supervisor with small real child processes: restarts, back-off, reset, shutdown. */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const { createServer } = require('node:net');
const { Supervisor, backoffDelay, backoffFromEnv, livenessFromEnv } = require('../supervisor');

/** A child that runs `code` (JavaScript) in a fresh node. */
const spec = (name, code, extra = {}) => ({ name, command: process.execPath, args: ['-e', code], stdio: 'ignore', ...extra });
const SLEEPER = 'setInterval(() => {}, 1000)';
const quiet = (lines) => (line) => lines.push(line);

/** A supervisor whose children are killed when the test ends, whatever happened in it. */
function supervisor(t, options) {
  const sup = new Supervisor({ log: () => {}, ...options });
  t.after(() => sup.killAll());
  return sup;
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** The next `n` events of a kind that match `filter`. */
function collect(emitter, event, n, filter = () => true) {
  return new Promise((resolve) => {
    const seen = [];
    const on = (e) => {
      if (!filter(e)) return;
      seen.push(e);
      if (seen.length === n) {
        emitter.off(event, on);
        resolve(seen);
      }
    };
    emitter.on(event, on);
  });
}

test('back-off doubles from the initial delay up to the cap', () => {
  const opts = { initialDelayMs: 1000, maxDelayMs: 30_000 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 100].map((n) => backoffDelay(n, opts)),
    [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
  );
  assert.deepEqual(backoffFromEnv({ RESTART_DELAY_MS: '200', RESTART_MAX_DELAY_MS: '' }), { initialDelayMs: 200 });
  assert.throws(() => backoffFromEnv({ RESTART_MAX_DELAY_MS: 'soon' }), /RESTART_MAX_DELAY_MS/);
});

test('a process that keeps crashing is restarted with growing delays, and nothing after stop()', async (t) => {
  const lines = [];
  const sup = supervisor(t, { initialDelayMs: 40, maxDelayMs: 160, resetAfterMs: 60_000, crashLoopWarnAfter: 3, log: quiet(lines) });
  const exits = collect(sup, 'exit', 5);
  sup.start(spec('crasher', 'process.exit(3)'));
  const seen = await exits;
  assert.deepEqual(
    seen.map((e) => e.restartInMs),
    [40, 80, 160, 160, 160],
  );
  assert.ok(seen.every((e) => e.code === 3 && !e.expected));
  assert.match(lines.join('\n'), /crasher \(pid \d+\) exited with code 3 after .*; restarting it in 0\.0 s/);
  assert.match(lines.join('\n'), /crash loop: 3 crashes in a row/);
  const restartsAtStop = sup.restarts('crasher');
  assert.deepEqual(await sup.stop(), { clean: true });
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(sup.restarts('crasher'), restartsAtStop, 'no restart after stop()');
});

test('kill -9 of one process restarts it; the others keep their pids', async (t) => {
  const sup = supervisor(t, { initialDelayMs: 50 });
  sup.start(spec('a', SLEEPER));
  sup.start(spec('b', SLEEPER));
  const [pidA, pidB] = [sup.pid('a'), sup.pid('b')];
  const restarted = collect(sup, 'start', 1, (e) => e.name === 'a');
  process.kill(pidA, 'SIGKILL');
  const [exit] = await once(sup, 'exit');
  assert.deepEqual(
    { name: exit.name, signal: exit.signal, expected: exit.expected, restartInMs: exit.restartInMs },
    {
      name: 'a',
      signal: 'SIGKILL',
      expected: false,
      restartInMs: 50,
    },
  );
  const [start] = await restarted;
  assert.notEqual(start.pid, pidA);
  assert.equal(start.restarts, 1);
  assert.equal(sup.pid('b'), pidB);
  assert.deepEqual(await sup.stop(), { clean: true });
  assert.equal(sup.pid('a'), undefined);
  assert.equal(sup.pid('b'), undefined);
});

test('a process that stayed up long enough starts the back-off again', async (t) => {
  const sup = supervisor(t, { initialDelayMs: 30, maxDelayMs: 1000, resetAfterMs: 150 });
  const exits = collect(sup, 'exit', 3);
  sup.start(spec('slow-crasher', 'setTimeout(() => process.exit(1), 250)'));
  assert.deepEqual(
    (await exits).map((e) => e.restartInMs),
    [30, 30, 30],
  );
  await sup.stop();
});

test('stop(): SIGTERM first, SIGKILL for a process that ignores it, and no restart of either', async (t) => {
  const lines = [];
  const sup = supervisor(t, { initialDelayMs: 10, stopTimeoutMs: 300, log: quiet(lines) });
  sup.start(spec('polite', SLEEPER));
  const stubborn = sup.start(
    spec('stubborn', `process.on('SIGTERM', () => {}); console.log('deaf'); ${SLEEPER}`, { stdio: ['ignore', 'pipe', 'ignore'] }),
  );
  await once(stubborn.stdout, 'data'); // its SIGTERM handler is installed
  const exits = collect(sup, 'exit', 2);
  assert.deepEqual(await sup.stop(), { clean: false });
  const byName = Object.fromEntries((await exits).map((e) => [e.name, e]));
  assert.equal(byName.polite.signal, 'SIGTERM');
  assert.equal(byName.stubborn.signal, 'SIGKILL');
  assert.ok(Object.values(byName).every((e) => e.expected && e.restartInMs === null));
  assert.match(lines.join('\n'), /stubborn \(pid \d+\) did not stop within 0\.3 s; killing it/);
});

test('with restarts off, an exit is reported and not restarted until enableRestarts()', async (t) => {
  const sup = supervisor(t, { restart: false, initialDelayMs: 10 });
  sup.start(spec('once', 'process.exit(2)'));
  const [first] = await once(sup, 'exit');
  assert.deepEqual([first.code, first.restartInMs], [2, null]);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(sup.restarts('once'), 0);
  await sup.stop();

  const sup2 = supervisor(t, { restart: false, initialDelayMs: 10 });
  sup2.start(spec('later', SLEEPER));
  sup2.enableRestarts();
  const restarted = collect(sup2, 'start', 1);
  process.kill(sup2.pid('later'), 'SIGKILL');
  assert.equal((await restarted)[0].restarts, 1);
  await sup2.stop();
});

test('whenReady() waits for the readiness URL, also after a restart', async (t) => {
  const port = await freePort();
  const server = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
  const sup = supervisor(t, { initialDelayMs: 20, readyPollMs: 20 });
  sup.start(spec('web', server, { readyUrl: `http://127.0.0.1:${port}/` }));
  await sup.whenReady('web', 10_000);
  const res = await fetch(`http://127.0.0.1:${port}/`);
  assert.equal(await res.text(), 'ok');
  const readyAgain = collect(sup, 'ready', 1);
  process.kill(sup.pid('web'), 'SIGKILL');
  assert.equal((await readyAgain)[0].restarts, 1);

  const dead = supervisor(t, {});
  dead.start(spec('never', 'process.exit(1)', { readyUrl: `http://127.0.0.1:${await freePort()}/` }));
  await assert.rejects(dead.whenReady('never', 10_000), /never exited \(code 1\) before it was ready/);
  await Promise.all([sup.stop(), dead.stop()]);
});

/**
 * A child serving /ready, and /live as `live` says: 'ok', 'hang' (never answers, the loop free),
 * 'block' (the first /live blocks the event loop for good, with a SIGTERM handler that can never
 * run, as a service's is), or '503'.
 */
function liveServer(port, live) {
  return `
    process.on('SIGTERM', () => process.exit(0));
    require('node:http').createServer((q, s) => {
      if (q.url === '/ready') return s.end('ok');
      const live = ${JSON.stringify(live)};
      if (live === 'ok') return s.end('ok');
      if (live === '503') { s.statusCode = 503; return s.end('stalled'); }
      if (live === 'block') for (;;) {}
      /* hang: no answer */
    }).listen(${port}, '127.0.0.1');`;
}

const LIVENESS = {
  initialDelayMs: 20,
  readyPollMs: 20,
  livenessPeriodMs: 30,
  livenessTimeoutMs: 200,
  livenessFailures: 3,
  livenessKillAfterMs: 300,
};

test('a child whose liveness probe hangs is stopped after K failures in a row and restarted', { timeout: 30_000 }, async (t) => {
  const lines = [];
  const port = await freePort();
  const sup = supervisor(t, { ...LIVENESS, log: quiet(lines) });
  sup.start(
    spec('hung', liveServer(port, 'hang'), { readyUrl: `http://127.0.0.1:${port}/ready`, liveUrl: `http://127.0.0.1:${port}/live` }),
  );
  await sup.whenReady('hung', 10_000);
  const firstPid = sup.pid('hung');
  const [unhealthy] = await once(sup, 'unhealthy');
  assert.deepEqual([unhealthy.name, unhealthy.pid, unhealthy.failures], ['hung', firstPid, 3]);
  assert.match(unhealthy.reason, /no answer within 0\.2 s/);
  const [exit] = await once(sup, 'exit');
  assert.equal(exit.expected, false);
  assert.notEqual(exit.restartInMs, null);
  const [start] = await once(sup, 'start');
  assert.notEqual(start.pid, firstPid);
  assert.equal(start.restarts, 1);
  const log = lines.join('\n');
  assert.match(log, /hung \(pid \d+\) failed its liveness check \(no answer within 0\.2 s\); 1 of 3 in a row/);
  assert.match(log, /hung \(pid \d+\) failed its liveness check 3 times in a row .*; stopping it to restart it/);
  await sup.stop();
});

test('a child whose event loop is blocked (its SIGTERM handler cannot run) is killed and restarted', { timeout: 30_000 }, async (t) => {
  const port = await freePort();
  const sup = supervisor(t, LIVENESS);
  sup.start(
    spec('blocked', liveServer(port, 'block'), { readyUrl: `http://127.0.0.1:${port}/ready`, liveUrl: `http://127.0.0.1:${port}/live` }),
  );
  await sup.whenReady('blocked', 10_000);
  const [exit] = await once(sup, 'exit');
  assert.deepEqual([exit.name, exit.signal, exit.expected], ['blocked', 'SIGKILL', false]);
  assert.equal((await collect(sup, 'start', 1))[0].restarts, 1);
  await sup.stop();
});

test('a child that answers 503 on liveness is restarted; one that answers 200 keeps its pid', { timeout: 30_000 }, async (t) => {
  const [stalledPort, finePort] = [await freePort(), await freePort()];
  const sup = supervisor(t, LIVENESS);
  const urls = (port) => ({ readyUrl: `http://127.0.0.1:${port}/ready`, liveUrl: `http://127.0.0.1:${port}/live` });
  sup.start(spec('stalled', liveServer(stalledPort, '503'), urls(stalledPort)));
  sup.start(spec('fine', liveServer(finePort, 'ok'), urls(finePort)));
  await Promise.all([sup.whenReady('stalled', 10_000), sup.whenReady('fine', 10_000)]);
  const finePid = sup.pid('fine');
  // Two restarts of the stalled child: the fine one was probed all that time.
  const unhealthy = await collect(sup, 'unhealthy', 2);
  assert.ok(unhealthy.every((e) => e.name === 'stalled' && e.reason === 'HTTP 503'));
  assert.equal(sup.pid('fine'), finePid);
  assert.equal(sup.restarts('fine'), 0);
  assert.deepEqual(await sup.stop(), { clean: true });
});

test('liveness settings come from the environment and are checked', () => {
  assert.deepEqual(livenessFromEnv({ LIVENESS_PERIOD_MS: '5000', LIVENESS_FAILURES: '2', LIVENESS_TIMEOUT_MS: '' }), {
    livenessPeriodMs: 5000,
    livenessFailures: 2,
  });
  assert.throws(() => livenessFromEnv({ LIVENESS_FAILURES: '0' }), /LIVENESS_FAILURES must be a whole number/);
  assert.throws(() => livenessFromEnv({ LIVENESS_TIMEOUT_MS: 'soon' }), /LIVENESS_TIMEOUT_MS/);
});

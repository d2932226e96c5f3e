'use strict';
/*
 * The whole docintel stack for the hardening run, started as `npm start` starts it (the same app
 * definitions and the same supervisor: a service that dies is restarted with back-off) on a
 * private database, NATS prefix, storage root and ports. Every exit the run did not cause is
 * recorded as a crash, with the last lines the process wrote.
 */
const { execFile } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { Supervisor } = require('../../scripts/supervisor');
const { appSpecs, SERVICES } = require('../../scripts/start');
const { startInfrastructure } = require('../lib/infra');
const { consecutiveFreePorts } = require('../lib/ports');
const { REPO_ROOT } = require('../lib/processes');

/**
 * Providers of the run: "Local storage" as the default one is (every namespace may use it, each in
 * its own directory), and one provider per namespace that only that namespace may use.
 */
function providersFile(dir, namespaces) {
  const roots = ['shared', ...namespaces].map((n) => join(dir, n));
  for (const r of roots) mkdirSync(r, { recursive: true });
  const lines = [
    'providers:',
    '  - name: Local storage',
    '    type: LOCAL',
    `    root: ${JSON.stringify(roots[0])}`,
    '    namespaceRoot: "{namespace}"',
  ];
  namespaces.forEach((ns, i) => {
    lines.push(`  - name: Only ${ns}`, '    type: LOCAL', `    root: ${JSON.stringify(roots[i + 1])}`, `    namespaces: [${ns}]`);
  });
  const file = join(dir, 'providers.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * Starts the stack. Resolves with { url, port(name), pid(name), token(ns, email), kill(name),
 * crashes, markScenario(id), stop() }.
 */
async function startHardeningStack({ namespaces = ['acme', 'globex'], log = () => {} } = {}) {
  const infra = await startInfrastructure('hardening');
  const dir = mkdtempSync(join(tmpdir(), 'docintel-hardening-'));
  let supervisor;
  const cleanup = async () => {
    if (supervisor) await supervisor.stop();
    rmSync(dir, { recursive: true, force: true });
    await infra.teardown();
  };
  try {
    const base = await consecutiveFreePorts(SERVICES.length + 1);
    const gatewayPort = base;
    const env = {
      ...process.env,
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.natsPrefix,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
      PROVIDERS_FILE: providersFile(join(dir, 'storage'), namespaces),
      STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      // storage-service is the first of the services (scripts/start.js SERVICES).
      STORAGE_SERVICE_URL: `http://127.0.0.1:${base + 1 + SERVICES.indexOf('storage-service')}`,
      INDEX_TEMP_DIR: join(dir, 'index-tmp'),
      // A killed indexing worker's message comes back after six silent heartbeats (6 s), and the
      // sweeper runs often: the fault scenario waits for outcomes, not for default timers.
      PIPELINE_HEARTBEAT_SECONDS: '1',
      SWEEP_INTERVAL_SECONDS: '5',
      SWEEP_PENDING_AFTER_SECONDS: '10',
      SWEEP_STALE_RUNNING_SECONDS: '30',
    };
    mkdirSync(env.INDEX_TEMP_DIR, { recursive: true });
    const specs = appSpecs({ env, gatewayPort, servicePortBase: base + 1 }, { stdio: ['ignore', 'pipe', 'pipe'] });
    const ports = Object.fromEntries(specs.map((s) => [s.name, s.port]));
    const tails = new Map();
    const crashes = [];
    const intentional = new Set();
    let scenario = 'start-up';

    supervisor = new Supervisor({ initialDelayMs: 200, maxDelayMs: 2000, resetAfterMs: 30_000, log: (l) => log(`supervisor: ${l}`) });
    process.once('exit', () => supervisor.killAll());
    supervisor.on('start', ({ name, child }) => {
      const lines = [];
      tails.set(name, lines);
      const keep = (chunk) => {
        lines.push(chunk.toString());
        if (lines.length > 100) lines.shift();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
    });
    supervisor.on('exit', ({ name, pid, code, signal, expected }) => {
      if (expected || intentional.delete(pid)) return;
      crashes.push({
        scenario,
        name,
        pid,
        code,
        signal,
        at: new Date().toISOString(),
        tail: (tails.get(name) ?? []).join('').slice(-3000),
      });
    });

    const services = specs.filter((s) => s.name !== 'api-gateway');
    for (const spec of services) supervisor.start(spec);
    await Promise.all(services.map((s) => supervisor.whenReady(s.name, 90_000)));
    supervisor.start(specs.find((s) => s.name === 'api-gateway'));
    await supervisor.whenReady('api-gateway', 90_000);
    if (crashes.length) throw new Error(`a service crashed during start-up:\n${crashes.map((c) => c.tail).join('\n')}`);
    scenario = null;

    // Peak resident memory of every service over the whole run, sampled twice a second.
    const peakRss = Object.fromEntries(specs.map((s) => [s.name, 0]));
    const rssTimer = setInterval(() => {
      for (const { name } of specs) {
        const kib = rssKib(supervisor.pid(name));
        if (kib > peakRss[name]) peakRss[name] = kib;
      }
    }, 500);
    rssTimer.unref();
    const stop = async () => {
      clearInterval(rssTimer);
      await cleanup();
    };

    return {
      url: `http://127.0.0.1:${gatewayPort}`,
      gatewayPort,
      dir,
      env,
      crashes,
      names: () => specs.map((s) => s.name),
      port: (name) => ports[name],
      pid: (name) => supervisor.pid(name),
      restarts: (name) => supervisor.restarts(name),
      whenReady: (name, timeoutMs) => supervisor.whenReady(name, timeoutMs),
      /** Open file descriptors of a service (Linux), or null. */
      fdCount(name) {
        try {
          return readdirSync(`/proc/${supervisor.pid(name)}/fd`).length;
        } catch {
          return null;
        }
      },
      /** A new token from the gateway CLI (the last line it prints), within 60 s. */
      async token(namespace, email) {
        const cli = join(REPO_ROOT, 'apps/api-gateway/dist/cli/main.js');
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [cli, 'token', 'create', '--namespace', namespace, '--user', email],
          {
            cwd: REPO_ROOT,
            env,
            timeout: 60_000,
          },
        );
        return stdout.trim().split('\n').pop();
      },
      markScenario(id) {
        scenario = id;
      },
      /** kill -<signal> a service on purpose: not counted as a crash; the supervisor restarts it. */
      kill(name, signal = 'SIGKILL') {
        const pid = supervisor.pid(name);
        if (!pid) throw new Error(`${name} is not running`);
        intentional.add(pid);
        process.kill(pid, signal);
        return pid;
      },
      logsOf: (name) => (tails.get(name) ?? []).join(''),
      /** Peak resident set size of each service so far, in MiB. */
      peakRssMib: () => Object.fromEntries(Object.entries(peakRss).map(([n, kib]) => [n, Math.round(kib / 1024)])),
      stop,
    };
  } catch (err) {
    await cleanup().catch(() => {});
    throw err;
  }
}

/** VmRSS of a process in KiB (Linux), or 0. */
function rssKib(pid) {
  if (!pid) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

module.exports = { startHardeningStack };

'use strict';
/*
 * Keeps a set of child processes running on one machine: a process that exits while nobody asked
 * it to is started again after a back-off delay, and the others keep running. Used by
 * scripts/start.js (npm start) and by the hardening bench (bench/hardening/).
 *
 * Back-off: the first restart waits `initialDelayMs` (1 s), each further crash in a row doubles
 * the wait up to `maxDelayMs` (30 s). A process that stayed up for `resetAfterMs` (60 s) before it
 * crashed starts the count again. A crash loop is never given up on: the process is retried at
 * the longest delay for as long as the supervisor runs, and every crash is logged with its exit
 * code or signal. The common cause of a loop on one machine is a dependency that is away
 * (PostgreSQL or NATS restarting: services fail fast at start-up), which ends on its own; giving up
 * would leave the service down until someone restarts everything. After `crashLoopWarnAfter`
 * crashes in a row each log line says that it is a crash loop.
 *
 * Liveness: a process whose spec has a `liveUrl` is probed there every `livenessPeriodMs` (10 s)
 * once it is ready, each probe bounded by `livenessTimeoutMs` (3 s). A process whose event loop is
 * blocked keeps its port open but cannot answer, so a probe that times out is a failure, as is any
 * answer but 2xx (the services answer 503 while their loop stalls). After `livenessFailures` (3)
 * failures in a row the process gets SIGTERM and, if it has not exited `livenessKillAfterMs` (5 s)
 * later, SIGKILL (a blocked loop never runs its SIGTERM handler); its exit is then restarted like a
 * crash, with the same back-off.
 *
 * stop() ends the supervision: no restart is scheduled from then on (a pending one is cancelled),
 * every child gets SIGTERM and, after `stopTimeoutMs`, SIGKILL.
 */
const { spawn: spawnProcess } = require('node:child_process');
const { EventEmitter } = require('node:events');

const DEFAULTS = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
  stopTimeoutMs: 20_000,
  crashLoopWarnAfter: 5,
  readyPollMs: 250,
  livenessPeriodMs: 10_000,
  livenessTimeoutMs: 3000,
  livenessFailures: 3,
  livenessKillAfterMs: 5000,
};

/** The wait before restart number `crashesInARow` (1, 2, ...): initial, doubled each time, capped. */
function backoffDelay(crashesInARow, { initialDelayMs, maxDelayMs } = DEFAULTS) {
  const n = Math.max(1, crashesInARow);
  return Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(n - 1, 30));
}

/** "code 1", "signal SIGKILL". */
function describeExit(code, signal) {
  return signal ? `signal ${signal}` : `code ${code}`;
}

const seconds = (ms) => `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;

/** Reads the environment variables that tune the back-off (milliseconds); absent ones keep the defaults. */
function backoffFromEnv(env = process.env) {
  const read = (name) => {
    if (env[name] === undefined || env[name] === '') return undefined;
    const n = Number(env[name]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of milliseconds (got "${env[name]}")`);
    return n;
  };
  const options = {
    initialDelayMs: read('RESTART_DELAY_MS'),
    maxDelayMs: read('RESTART_MAX_DELAY_MS'),
    resetAfterMs: read('RESTART_RESET_AFTER_MS'),
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** Reads the environment variables that tune the liveness probes; absent ones keep the defaults. */
function livenessFromEnv(env = process.env) {
  const read = (name, what, min) => {
    if (env[name] === undefined || env[name] === '') return undefined;
    const n = Number(env[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be ${what} (got "${env[name]}")`);
    return n;
  };
  const options = {
    livenessPeriodMs: read('LIVENESS_PERIOD_MS', 'a number of milliseconds, at least 100', 100),
    livenessTimeoutMs: read('LIVENESS_TIMEOUT_MS', 'a number of milliseconds, at least 100', 100),
    livenessFailures: read('LIVENESS_FAILURES', 'a whole number, at least 1', 1),
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/**
 * Events: 'start' { name, pid, restarts, child }, 'exit' { name, pid, code, signal, uptimeMs, expected,
 * restartInMs (null: no restart) }, 'ready' { name, pid, restarts }, 'unhealthy' { name, pid, failures,
 * reason } (liveness failed `livenessFailures` times in a row; the process is being stopped).
 */
class Supervisor extends EventEmitter {
  /**
   * @param {object} options DEFAULTS overrides, plus `log(line)` (stderr by default), `spawn`
   *   (child_process.spawn, replaceable in tests) and `restart` (false: report exits, restart nothing,
   *   until enableRestarts()).
   */
  constructor(options = {}) {
    super();
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.log = options.log ?? ((line) => process.stderr.write(`[supervisor] ${line}\n`));
    this.spawn = options.spawn ?? spawnProcess;
    this.restarting = options.restart !== false;
    this.stopping = false;
    /** name -> { spec, child, startedAt, crashesInARow, restarts, timer, readyWaiters } */
    this.procs = new Map();
  }

  /**
   * Registers and starts a process. spec: { name, command, args, env, cwd, stdio, readyUrl, liveUrl }.
   * readyUrl, when given, is polled after every start until it answers 2xx ('ready' event); liveUrl,
   * when given, is probed from then on (see Liveness above).
   */
  start(spec) {
    if (this.procs.has(spec.name)) throw new Error(`${spec.name} is already supervised`);
    if (this.stopping) throw new Error('the supervisor is stopping');
    const proc = { spec, child: null, startedAt: 0, crashesInARow: 0, restarts: 0, timer: null, ready: false };
    this.procs.set(spec.name, proc);
    this.launch(proc);
    return proc.child;
  }

  /** From now on, unexpected exits are restarted (for a launcher that first waits for a clean start-up). */
  enableRestarts() {
    this.restarting = true;
  }

  pid(name) {
    const child = this.procs.get(name)?.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  restarts(name) {
    return this.procs.get(name)?.restarts ?? 0;
  }

  names() {
    return [...this.procs.keys()];
  }

  launch(proc) {
    const { spec } = proc;
    proc.timer = null;
    proc.ready = false;
    const child = this.spawn(spec.command, spec.args ?? [], { cwd: spec.cwd, env: spec.env, stdio: spec.stdio ?? 'inherit' });
    proc.child = child;
    proc.startedAt = Date.now();
    child.once('error', (err) => this.log(`${spec.name} could not be started: ${err.message}`));
    child.once('exit', (code, signal) => this.onExit(proc, child, code, signal));
    this.emit('start', { name: spec.name, pid: child.pid, restarts: proc.restarts, child });
    if (spec.readyUrl) void this.pollReady(proc, child);
  }

  async pollReady(proc, child) {
    const alive = () => proc.child === child && child.exitCode === null && child.signalCode === null && !this.stopping;
    while (alive()) {
      try {
        const res = await fetch(proc.spec.readyUrl, { signal: AbortSignal.timeout(2000) });
        if (res.ok && alive()) {
          proc.ready = true;
          if (proc.restarts > 0) this.log(`${proc.spec.name} is ready again (pid ${child.pid}, restart ${proc.restarts})`);
          this.emit('ready', { name: proc.spec.name, pid: child.pid, restarts: proc.restarts });
          if (proc.spec.liveUrl) void this.watchLiveness(proc, child);
          return;
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, this.options.readyPollMs));
    }
  }

  /** Probes liveUrl of a ready child until it exits; stops the child after too many failures in a row. */
  async watchLiveness(proc, child) {
    const { livenessPeriodMs, livenessTimeoutMs, livenessFailures, livenessKillAfterMs } = this.options;
    const alive = () => proc.child === child && child.exitCode === null && child.signalCode === null && !this.stopping;
    let failures = 0;
    while (alive()) {
      // unref: the supervisor lives as long as its children do, never because of a pending probe.
      await new Promise((r) => setTimeout(r, livenessPeriodMs).unref());
      if (!alive()) return;
      const reason = await this.probe(proc.spec.liveUrl, livenessTimeoutMs);
      if (!alive()) return;
      if (reason === null) {
        failures = 0;
        continue;
      }
      failures += 1;
      if (failures < livenessFailures) {
        this.log(`${proc.spec.name} (pid ${child.pid}) failed its liveness check (${reason}); ${failures} of ${livenessFailures} in a row`);
        continue;
      }
      this.log(
        `${proc.spec.name} (pid ${child.pid}) failed its liveness check ${failures} times in a row (${reason}); stopping it to restart it`,
      );
      this.emit('unhealthy', { name: proc.spec.name, pid: child.pid, failures, reason });
      const force = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }, livenessKillAfterMs);
      child.once('exit', () => clearTimeout(force));
      child.kill('SIGTERM');
      return;
    }
  }

  /** null when `url` answered 2xx within `timeoutMs`, else what went wrong. */
  async probe(url, timeoutMs) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? null : `HTTP ${res.status}`;
    } catch (err) {
      return err?.name === 'TimeoutError' ? `no answer within ${seconds(timeoutMs)}` : (err?.cause?.code ?? err?.message ?? String(err));
    }
  }

  /** Resolves when `name` answered its readyUrl since its last start; rejects if it exits first or after `timeoutMs`. */
  whenReady(name, timeoutMs = 60_000) {
    const proc = this.procs.get(name);
    if (!proc) return Promise.reject(new Error(`${name} is not supervised`));
    if (proc.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (fn, arg) => {
        clearTimeout(timer);
        this.off('ready', onReady);
        this.off('exit', onExit);
        fn(arg);
      };
      const onReady = (e) => e.name === name && done(resolve);
      const onExit = (e) =>
        e.name === name && done(reject, new Error(`${name} exited (${describeExit(e.code, e.signal)}) before it was ready`));
      const timer = setTimeout(() => done(reject, new Error(`${name} was not ready within ${seconds(timeoutMs)}`)), timeoutMs);
      this.on('ready', onReady);
      this.on('exit', onExit);
    });
  }

  onExit(proc, child, code, signal) {
    if (proc.child !== child) return;
    const { name } = proc.spec;
    const uptimeMs = Date.now() - proc.startedAt;
    const expected = this.stopping;
    let restartInMs = null;
    if (!expected && this.restarting) {
      proc.crashesInARow = uptimeMs >= this.options.resetAfterMs ? 1 : proc.crashesInARow + 1;
      restartInMs = backoffDelay(proc.crashesInARow, this.options);
      const loop =
        proc.crashesInARow >= this.options.crashLoopWarnAfter
          ? `; crash loop: ${proc.crashesInARow} crashes in a row, each within ${seconds(this.options.resetAfterMs)} of its start (see its log above)`
          : '';
      this.log(
        `${name} (pid ${child.pid}) exited with ${describeExit(code, signal)} after ${seconds(uptimeMs)}; ` +
          `restarting it in ${seconds(restartInMs)}${loop}`,
      );
      proc.timer = setTimeout(() => {
        if (this.stopping) return;
        proc.restarts += 1;
        this.launch(proc);
        this.log(`${name} restarted (pid ${proc.child.pid}, restart ${proc.restarts})`);
      }, restartInMs);
    } else if (!expected) {
      this.log(`${name} (pid ${child.pid}) exited with ${describeExit(code, signal)} after ${seconds(uptimeMs)}`);
    }
    this.emit('exit', { name, pid: child.pid, code, signal, uptimeMs, expected, restartInMs });
  }

  /**
   * Stops supervising and stops every child: `signal` (SIGTERM) now, SIGKILL after stopTimeoutMs.
   * Resolves with { clean }: true when every child exited with code 0 or by the signal sent.
   */
  stop(signal = 'SIGTERM') {
    if (this.stopPromise) return this.stopPromise;
    this.stopping = true;
    const waits = [];
    let clean = true;
    for (const proc of this.procs.values()) {
      if (proc.timer) clearTimeout(proc.timer);
      proc.timer = null;
      const child = proc.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      waits.push(
        new Promise((resolve) => {
          const force = setTimeout(() => {
            this.log(`${proc.spec.name} (pid ${child.pid}) did not stop within ${seconds(this.options.stopTimeoutMs)}; killing it`);
            clean = false;
            child.kill('SIGKILL');
          }, this.options.stopTimeoutMs);
          child.once('exit', (code, sig) => {
            clearTimeout(force);
            if (!(code === 0 || sig === signal)) clean = false;
            resolve();
          });
          child.kill(signal);
        }),
      );
    }
    this.stopPromise = Promise.all(waits).then(() => ({ clean }));
    return this.stopPromise;
  }

  /** SIGKILL to every child at once, synchronously (for a process 'exit' handler). */
  killAll() {
    this.stopping = true;
    for (const proc of this.procs.values()) {
      if (proc.timer) clearTimeout(proc.timer);
      const child = proc.child;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
}

module.exports = { Supervisor, backoffDelay, backoffFromEnv, livenessFromEnv, describeExit, DEFAULTS };

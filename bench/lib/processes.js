'use strict';
/*
 * Child processes of a benchmark run: the built apps and the bare comparison server. Every
 * child is tracked so that it is stopped on success, on failure, on Ctrl-C and on exit.
 */
const { spawn, execFile } = require('node:child_process');
const { createServer } = require('node:net');
const { join, resolve } = require('node:path');
const { promisify } = require('node:util');
const { isInterrupted, throwIfInterrupted } = require('./interrupt');

const REPO_ROOT = resolve(__dirname, '../..');
const children = new Set();

process.once('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

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

/**
 * Starts `node [nodeArgs] script` with PORT set to a free port and waits until `readyPath`
 * answers 200. Resolves with { name, port, url, stop(), logs() }.
 */
async function startProcess(name, script, { env = {}, nodeArgs = [], readyPath = '/health/ready', timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise((res) => child.once('exit', (code, signal) => res(signal || code)));
  void exited.then(() => children.delete(child));
  const lines = [];
  const keep = (chunk) => {
    lines.push(chunk.toString());
    if (lines.length > 200) lines.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const proc = {
    name,
    port,
    url,
    pid: child.pid,
    logs: () => lines.join(''),
    /** SIGTERM (graceful shutdown), SIGKILL after the grace period. */
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isInterrupted()) {
      await proc.stop();
      throwIfInterrupted();
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited during start-up (${child.signalCode || child.exitCode}):\n${proc.logs()}`);
    }
    try {
      const res = await fetch(`${url}${readyPath}`);
      if (res.ok) return proc;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.stop();
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${proc.logs()}`);
}

/** Starts a built app (apps/<name>/dist/main.js). */
function startApp(name, env, opts = {}) {
  return startProcess(name, join(REPO_ROOT, 'apps', name, 'dist', 'main.js'), { ...opts, env });
}

/** A new personal access token from the gateway CLI; the token is the last line of its output. */
async function createToken(env, namespace, email) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(REPO_ROOT, 'apps/api-gateway/dist/cli/main.js'), 'token', 'create', '--namespace', namespace, '--user', email],
    { cwd: REPO_ROOT, env: { ...process.env, ...env } },
  );
  return stdout.trim().split('\n').pop();
}

async function stopAll() {
  await Promise.allSettled(
    [...children].map((c) => {
      if (c.exitCode !== null || c.signalCode !== null) return undefined;
      return new Promise((res) => {
        const timer = setTimeout(() => c.kill('SIGKILL'), 20_000);
        c.once('exit', () => {
          clearTimeout(timer);
          res();
        });
        c.kill('SIGTERM');
      });
    }),
  );
}

module.exports = { REPO_ROOT, startProcess, startApp, createToken, stopAll };

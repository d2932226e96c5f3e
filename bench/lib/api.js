'use strict';
/* Calls to a started stack's HTTP API, and polling, for the scenarios that drive it as a user does. */
const { throwIfInterrupted } = require('./interrupt');

/** A JSON call with a bearer token; throws with the status and body when the answer is not 2xx. */
async function api(stack, token, method, path, body) {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Reads until `ready`, every `everyMs`, up to `timeoutMs`; Ctrl-C stops it. */
async function until(what, read, ready, timeoutMs, everyMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    throwIfInterrupted();
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

module.exports = { api, until };

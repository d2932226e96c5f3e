'use strict';
/* Runs lists of hostile requests with bounded concurrency, a per-request deadline and an overall budget. */
const { appendFileSync } = require('node:fs');
const { isInterrupted } = require('../lib/interrupt');
const { rawRequest } = require('./http');
const { describe } = require('./tally');

/** HARDENING_TRACE=<file>: one line per case (scenario, status, request), to see what each case got. */
const TRACE = process.env.HARDENING_TRACE;

/**
 * What no answer may contain, whoever asks: stack traces, SQL errors, paths and secrets of the
 * deployment. Returns a failure message or undefined.
 */
function exposesInternals(res, secrets = []) {
  if (res.outcome !== 'response' || !res.body?.length) return undefined;
  const text = res.body.toString('utf8');
  const patterns = [
    [/\n\s+at [\w$.<>]+ \(/, 'a stack trace'],
    [/node_modules\//, 'a node_modules path'],
    [/QueryFailedError|syntax error at or near|duplicate key value violates/, 'a database error'],
    [/ECONNREFUSED|EADDRINUSE|ENOENT: no such file/, 'a system error'],
  ];
  for (const [re, what] of patterns) if (re.test(text)) return `the answer shows ${what}: ${text.slice(0, 200)}`;
  for (const s of secrets) if (s && text.includes(s)) return `the answer shows a deployment secret or path (${s.slice(0, 24)}…)`;
  return undefined;
}

/**
 * Sends `cases` ({ method, path, headers, body } or { raw }, optional check(res) -> { leak, fail }).
 * Stops starting new cases after `deadline` (epoch ms) or on Ctrl-C; the rest count as skipped.
 */
async function runCases(tally, scenario, cases, { port, concurrency = 6, deadline = Infinity, timeoutMs = 15_000, secrets = [] }) {
  let next = 0;
  const worker = async () => {
    while (next < cases.length && Date.now() < deadline && !isInterrupted()) {
      const c = cases[next++];
      const res = await rawRequest(c.port ?? port, { ...c, timeoutMs: c.timeoutMs ?? timeoutMs });
      let verdict = {};
      try {
        verdict = (c.check ? await c.check(res) : {}) ?? {};
      } catch (err) {
        verdict = { fail: `check failed: ${err.message}` };
      }
      const internals = exposesInternals(res, secrets);
      if (internals && !verdict.fail) verdict = { ...verdict, fail: internals };
      tally.record(scenario, c, res, verdict);
      if (TRACE) appendFileSync(TRACE, `${scenario}\t${res.status ?? res.outcome}\t${describe(c)}\n`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (next < cases.length) tally.skipped(scenario, cases.length - next);
  return cases.length - next;
}

/** fetch with a deadline, for setting things up (not counted). */
async function call(baseUrl, method, path, { token, body, headers = {}, timeoutMs = 30_000 } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** call() that insists on a status: set-up that fails stops the run with the answer. */
async function must(status, baseUrl, method, path, opts) {
  const res = await call(baseUrl, method, path, opts);
  if (res.status !== status)
    throw new Error(`set-up ${method} ${path} answered ${res.status} (expected ${status}): ${res.text.slice(0, 500)}`);
  return res.json;
}

/** Multipart upload of `content` to `key` (directory part as the query key) through the gateway. */
function upload(baseUrl, token, providerId, key, content) {
  const slash = key.lastIndexOf('/');
  const form = new FormData();
  form.append('file', new Blob([content]), key.slice(slash + 1));
  return call(baseUrl, 'POST', `/api/core/providers/${providerId}/items?key=${encodeURIComponent(key.slice(0, slash + 1))}`, {
    token,
    body: form,
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls read() until ready(value) or the deadline; resolves with the last value and whether it got ready. */
async function poll(read, ready, timeoutMs, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ready(value) && Date.now() < deadline && !isInterrupted()) {
    await sleep(everyMs);
    value = await read();
  }
  return { value, ready: ready(value) };
}

module.exports = { runCases, exposesInternals, call, must, upload, sleep, poll };

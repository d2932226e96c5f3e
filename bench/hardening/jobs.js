'use strict';
/*
 * (iv) Jobs and fairness: a hostile but legitimate tenant ("flood") against the job and agent
 * routes while another tenant ("quiet") works normally. Hostile schemas (catastrophic patterns,
 * recursive and wide schemas), lone surrogates in every job text field, a flood of QA jobs, a batch
 * of large PDFs while the quiet tenant indexes and asks a small file, and kill -9 of
 * indexing-service during that busy queue. What must hold: no 5xx, no hang, every quiet request
 * answered within QUIET_LIMIT_MS, the small file answerable within SMALL_FILE_LIMIT_MS of its
 * SUCCESS, and every file of the batch ending SUCCESS.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { REPO_ROOT } = require('../lib/processes');
const { rawRequest } = require('./http');
const { call, must, poll, runCases, sleep, upload } = require('./runner');

const TERMINAL = ['SUCCESS', 'FAILED', 'ABORTED'];
const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
const QUIET_LIMIT_MS = 5_000;
const SMALL_FILE_LIMIT_MS = 10_000;
const FLOOD_JOBS = Number(process.env.HARDENING_FLOOD_JOBS || 300);
const BIG_BATCH = [
  'pdf/unstructured_pdf2image-memory-error-test-400p.pdf',
  'pdf/pdfjs_freeculture.pdf',
  'pdf/pypdf-samples_GeoTopo-komprimiert.pdf',
  'pdf/papermage_papermage.pdf',
];

/** Schemas that were seen to freeze or bloat job-orchestrator; each must be refused or run bounded. */
function hostileSchemas() {
  const wide = { type: 'object', properties: {} };
  for (let i = 0; i < 2100; i++) wide.properties[`field_${i}`] = { type: 'string', description: `value number ${i}` };
  // Each level names the next one ten times: 349 bytes that expand to 111,111 fields.
  const bomb = { type: 'object', $defs: {}, properties: { root: { $ref: '#/$defs/l0' } } };
  for (let l = 0; l < 5; l++) {
    const props = {};
    for (let i = 0; i < 10; i++) props[`f${i}`] = l === 4 ? { type: 'string' } : { $ref: `#/$defs/l${l + 1}` };
    bomb.$defs[`l${l}`] = { type: 'object', properties: props };
  }
  const recursive = {
    type: 'object',
    properties: { node: { $ref: '#/$defs/node' } },
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, left: { $ref: '#/$defs/node' }, right: { $ref: '#/$defs/node' } },
      },
    },
  };
  return [
    ['propertyNames pattern (a+)+$', { type: 'object', propertyNames: { pattern: '^(a+)+$' } }, `{"${'a'.repeat(30)}!": 1}`],
    ['pattern (a|a)*$', { type: 'object', properties: { v: { type: 'string', pattern: '^(a|a)*$' } } }, null],
    ['patternProperties (a+)+$', { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } }, null],
    ['backreference pattern', { type: 'object', properties: { v: { type: 'string', pattern: '^(a)\\1$' } } }, null],
    ['2,100 fields', wide, null],
    ['recursive $ref', recursive, null],
    ['$ref expansion to 111,111 fields', bomb, null],
  ];
}

/** Job bodies, each with one text field set to `text`, for every job create route. */
function bodiesWith(text, fileId) {
  const files = { fileIds: [fileId] };
  return [
    ['qa question', '/api/core/qa/jobs', { files, questions: [{ question: text }] }],
    ['qa name', '/api/core/qa/jobs', { files, name: text, questions: [{ question: 'What is this about?' }] }],
    ['qa guidelines', '/api/core/qa/jobs', { files, questions: [{ question: 'What?', guidelines: text }] }],
    ['extraction meta', '/api/core/extraction/jobs', { files, metas: [{ meta: text }] }],
    ['extraction description', '/api/core/extraction/jobs', { files, metas: [{ meta: 'title', description: text }] }],
    [
      'multi-dim column label',
      '/api/core/multi-dim-extraction/jobs',
      { files, schema: { name: 'rows', columns: [{ key: 'k', label: text, type: 'STRING', role: 'IDENTIFIER', isRowKey: true }] } },
    ],
    ['agent message', '/api/core/agent/jobs', { message: text, files }],
    ['agent messages', '/api/core/agent/jobs', { messages: [{ role: 'user', content: text }], files }],
    ['find-similar doi', '/api/core/find-similar/jobs', { sourceIdentifiers: [{ doi: text }] }],
  ];
}

/** Uploads and indexes one file; resolves with its id once the create answered. */
async function indexFile(url, token, providerId, key, content) {
  const res = await upload(url, token, providerId, key, content);
  if (res.status !== 201) throw new Error(`set-up upload of ${key}: ${res.status} ${res.text.slice(0, 200)}`);
  return (await must(201, url, 'POST', '/api/core/files', { token, body: { providerId, key } })).id.id;
}

const fileStatus = async (url, token, fileId) =>
  (await call(url, 'GET', `/api/core/files/${fileId}`, { token, timeoutMs: 15_000 }).catch(() => null))?.json?.lastIndexationInfos?.status;

/**
 * The quiet tenant's background traffic while the flood tenant attacks: every second a page of its
 * jobs and of its files. Each request is a case; one slower than QUIET_LIMIT_MS fails its check.
 */
function quietTraffic(tally, S, port, token) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const path of ['/api/core/qa/jobs?page=0&pageSize=20', '/api/core/files?page=0&pageSize=20']) {
        const res = await rawRequest(port, { path, headers: { authorization: `Bearer ${token}` }, timeoutMs: 15_000 });
        const ms = res.ms ?? 15_000;
        latencies.push(ms);
        tally.record(
          S,
          { label: 'quiet tenant while the other floods', method: 'GET', path },
          res,
          ms > QUIET_LIMIT_MS ? { fail: `answered after ${ms} ms (limit ${QUIET_LIMIT_MS})` } : {},
        );
      }
      await sleep(1000);
    }
  })();
  return {
    latencies,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Asks one question over the file and waits for the job to end; resolves with the time it took. */
async function askAndWait(url, token, fileId, question, timeoutMs = 60_000) {
  const t0 = Date.now();
  const created = await call(url, 'POST', '/api/core/qa/jobs', {
    token,
    body: { files: { fileIds: [fileId] }, questions: [{ question }] },
    timeoutMs: 15_000,
  }).catch((err) => ({ status: 0, text: err.message }));
  if (created.status !== 200) return { ms: Date.now() - t0, status: `create answered ${created.status}: ${created.text?.slice(0, 200)}` };
  const jobId = created.json.jobId;
  const done = await poll(
    async () => (await call(url, 'GET', `/api/core/qa/jobs/${jobId}`, { token }).catch(() => null))?.json?.status,
    (s) => TERMINAL.includes(s),
    timeoutMs,
    200,
  );
  return { ms: Date.now() - t0, status: done.value };
}

async function jobs(stack, tally, { log, secrets }) {
  const S = 'jobs';
  const url = stack.url;
  const port = stack.gatewayPort;
  const flood = await stack.token('flood', 'ops@flood.test');
  const quiet = await stack.token('quiet', 'ops@quiet.test');
  const providerOf = async (token) =>
    (await must(200, url, 'GET', '/api/core/providers', { token })).data.find((p) => p.name === 'Local storage').id.id;
  const floodProvider = await providerOf(flood);
  const quietProvider = await providerOf(quiet);
  const text = 'The annual report was approved on 12 March 2024. The company employed 412 people.\n';
  const floodFile = await indexFile(url, flood, floodProvider, 'jobs/report.txt', text);
  const quietFile = await indexFile(url, quiet, quietProvider, 'jobs/report.txt', text);
  for (const [token, id] of [
    [flood, floodFile],
    [quiet, quietFile],
  ]) {
    const end = await poll(
      () => fileStatus(url, token, id),
      (s) => TERMINAL.includes(s),
      120_000,
      500,
    );
    if (end.value !== 'SUCCESS') throw new Error(`set-up indexation ended ${end.value}`);
  }
  const info = {};
  const background = quietTraffic(tally, S, port, quiet);
  try {
    // 1. Hostile schemas on the agent route: refused with a 4xx, or a job that ends, never a frozen service.
    const schemaCases = hostileSchemas().map(([label, schema, message]) => ({
      label: `agent output_model_schema: ${label}`,
      method: 'POST',
      path: '/api/core/agent/jobs',
      headers: { authorization: `Bearer ${flood}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        message: message ?? 'Fill in the fields from the report.',
        files: { fileIds: [floodFile] },
        output_model_schema: schema,
        max_iterations: 50,
      }),
    }));
    await runCases(tally, S, schemaCases, { port, concurrency: 2, timeoutMs: 15_000, secrets });
    // A schema the create accepted must not hold the agent queue: the quiet tenant's agent job still ends.
    const agentT0 = Date.now();
    const agent = await call(url, 'POST', '/api/core/agent/jobs', {
      token: quiet,
      body: { message: 'When was the report approved?', files: { fileIds: [quietFile] } },
    });
    const agentEnd =
      agent.status === 200
        ? await poll(
            async () => (await call(url, 'GET', `/api/core/agent/jobs/${agent.json.jobId}`, { token: quiet })).json?.status,
            (s) => TERMINAL.includes(s),
            120_000,
            250,
          )
        : { value: `create answered ${agent.status}` };
    info.quietAgentMs = Date.now() - agentT0;
    tally.check(
      S,
      "the quiet tenant's agent job ends SUCCESS after the hostile schemas",
      agentEnd.value === 'SUCCESS',
      `ended ${agentEnd.value} after ${info.quietAgentMs} ms`,
    );

    // 2. A lone surrogate (and a NUL) in every job text field: 400 naming the field.
    const textCases = [];
    for (const [what, raw] of [
      ['a lone surrogate', '"\\ud800 text"'],
      ['a NUL character', '"a\\u0000b"'],
    ]) {
      for (const [label, path, body] of bodiesWith('\u0001MARK\u0001', floodFile)) {
        textCases.push({
          label: `${label} with ${what}`,
          method: 'POST',
          path,
          headers: { authorization: `Bearer ${flood}`, 'content-type': 'application/json' },
          body: JSON.stringify(body).replace('"\\u0001MARK\\u0001"', raw),
          check: (res) =>
            res.outcome === 'response' && res.status === 400 ? {} : { fail: `expected 400, got ${res.status ?? res.outcome}` },
        });
      }
    }
    await runCases(tally, S, textCases, { port, concurrency: 4, timeoutMs: 15_000, secrets });

    // 3. A flood of QA jobs from one namespace; the quiet namespace's one-question job meanwhile.
    const statuses = {};
    const floodBody = JSON.stringify({
      files: { fileIds: [floodFile] },
      questions: [{ question: 'How many people did the company employ?' }],
    });
    const floodCases = Array.from({ length: FLOOD_JOBS }, () => ({
      label: 'flood of QA jobs',
      method: 'POST',
      path: '/api/core/qa/jobs',
      headers: { authorization: `Bearer ${flood}`, 'content-type': 'application/json' },
      body: floodBody,
      check: (res) => {
        const key = res.status ?? res.outcome;
        statuses[key] = (statuses[key] ?? 0) + 1;
        return res.status === 429 && !res.headers['retry-after'] ? { fail: '429 without Retry-After' } : {};
      },
    }));
    const flooding = runCases(tally, S, floodCases, { port, concurrency: 8, timeoutMs: 15_000, secrets });
    await sleep(2000);
    const quietJob = await askAndWait(url, quiet, quietFile, 'When was the annual report approved?');
    await flooding;
    info.flood = { statuses, quietJobMs: quietJob.ms };
    log(`jobs: flood answered ${JSON.stringify(statuses)}; the quiet tenant's job took ${quietJob.ms} ms (${quietJob.status})`);
    tally.check(
      S,
      "the quiet tenant's QA job ends SUCCESS within 5 s while another floods",
      quietJob.status === 'SUCCESS' && quietJob.ms <= QUIET_LIMIT_MS,
      `${quietJob.status} after ${quietJob.ms} ms`,
    );

    // 4. A batch of large PDFs in one namespace, a small file of another indexed and asked meanwhile,
    //    and kill -9 of indexing-service while the queue is busy.
    const batch = [];
    for (const path of BIG_BATCH) {
      const key = `jobs/batch/${path.split('/').pop()}`;
      batch.push({ key, id: await indexFile(url, flood, floodProvider, key, readFileSync(join(CORPUS, path))) });
    }
    await sleep(3000);
    const smallT0 = Date.now();
    const small = await indexFile(
      url,
      quiet,
      quietProvider,
      'jobs/minutes.txt',
      'Minutes of the board. The board met on 3 May 2024 in Lyon.\n',
    );
    const smallDone = await poll(
      () => fileStatus(url, quiet, small),
      (s) => TERMINAL.includes(s),
      300_000,
      250,
    );
    info.smallIndexMs = Date.now() - smallT0;
    const asked = await askAndWait(url, quiet, small, 'Where did the board meet?', SMALL_FILE_LIMIT_MS * 3);
    info.smallAskMs = asked.ms;
    log(
      `jobs: the small file ended ${smallDone.value} after ${info.smallIndexMs} ms while the batch indexed; asked: ${asked.status} in ${asked.ms} ms`,
    );
    tally.check(
      S,
      'a small file is answerable within 10 s of its SUCCESS while large PDFs index',
      smallDone.value === 'SUCCESS' && asked.status === 'SUCCESS' && asked.ms <= SMALL_FILE_LIMIT_MS,
      `indexation ${smallDone.value} after ${info.smallIndexMs} ms; question ${asked.status} after ${asked.ms} ms`,
    );
    const pending = await Promise.all(batch.map((f) => fileStatus(url, flood, f.id)));
    if (pending.some((s) => !TERMINAL.includes(s))) {
      const pid = stack.kill('indexing-service');
      info.killedDuringBatch = pid;
      log(`jobs: killed indexing-service (pid ${pid}) with the batch at ${pending.join(', ')}`);
      await stack.whenReady('indexing-service', 90_000).catch(() => {});
    }
    for (const f of batch) {
      const end = await poll(
        () => fileStatus(url, flood, f.id),
        (s) => TERMINAL.includes(s),
        900_000,
        2000,
      );
      tally.check(S, `${f.key} ends SUCCESS (killed once during the busy queue)`, end.value === 'SUCCESS', `status ${end.value}`);
    }
  } finally {
    await background.stop();
  }
  const sorted = [...background.latencies].sort((a, b) => a - b);
  info.quiet = { requests: sorted.length, p50: sorted[Math.floor(sorted.length / 2)] ?? null, max: sorted.at(-1) ?? null };
  return info;
}

module.exports = { jobs, hostileSchemas, bodiesWith };

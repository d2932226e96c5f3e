'use strict';
/*
 * Agent jobs as a user runs them (`npm run bench -- agent`): five documents of ../shared/corpus
 * (text, HTML, two PDFs, DOCX) are uploaded and indexed by the whole stack (started as `npm start`
 * starts it, on a private database, NATS prefix, storage root and ports), then every question of
 * questions.json is one agent job over its file(s), text or with an output_model_schema, polled
 * until it ends; then a stateful conversation of two turns (the second through conversation_id).
 * Reported: whether each answer matches the hand-written accepted answers, whether a cited
 * annotation quotes it, and the time from POST to SUCCESS. The built-in planner answers (no LLM).
 */
const { readFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const { throwIfInterrupted } = require('../lib/interrupt');
const { api, until } = require('../lib/api');
const { REPO_ROOT } = require('../lib/processes');
const { startHardeningStack } = require('../hardening/stack');
const { grade, percentile, EXTRA_WORDS } = require('./grading');

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
const SET = JSON.parse(readFileSync(join(__dirname, 'questions.json'), 'utf8'));
const TARGET_MS = 2000;
const POLL_MS = 20;
const DONE = ['SUCCESS', 'FAILED', 'ABORTED'];

/** Uploads and registers the documents of the set; resolves with { name: fileId } once all are indexed. */
async function indexDocuments(stack, token, log) {
  const providers = await api(stack, token, 'GET', '/api/core/providers');
  const providerId = providers.data.find((p) => p.name === 'Only bench').id.id;
  const ids = {};
  for (const [name, path] of Object.entries(SET.documents)) {
    const file = basename(path);
    const form = new FormData();
    form.append('file', new Blob([readFileSync(join(CORPUS, path))]), file);
    const res = await fetch(`${stack.url}/api/core/providers/${providerId}/items?key=agent/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${path}: ${res.status} ${await res.text()}`);
    ids[name] = (await api(stack, token, 'POST', '/api/core/files', { providerId, key: `agent/${file}` })).id.id;
  }
  // Indexed, with the asynchronous steps the agent's search reads (embeddings, passages) over.
  for (const [name, id] of Object.entries(ids)) {
    const f = await until(
      `file ${SET.documents[name]}`,
      () => api(stack, token, 'GET', `/api/core/files/${id}`),
      (f) =>
        ['SUCCESS', 'FAILED'].includes(f.lastIndexationInfos.status) &&
        ['node_embedding', 'passage_indexing'].every((s) => ['SUCCESS', 'SKIPPED', 'FAILED'].includes(f.additionalInfos[s]?.status)),
      15 * 60_000,
      500,
    );
    if (f.lastIndexationInfos.status !== 'SUCCESS')
      throw new Error(`indexing ${SET.documents[name]} failed: ${JSON.stringify(f.lastIndexationInfos)}`);
    log(`indexed ${SET.documents[name]}`);
  }
  return ids;
}

/** One agent job from POST until it ends: its status, the time, its outputs and annotations. */
async function runJob(stack, token, body) {
  const started = performance.now();
  const job = await api(stack, token, 'POST', '/api/core/agent/jobs', body);
  const done = await until(
    `agent job ${job.jobId}`,
    () => api(stack, token, 'GET', `/api/core/agent/jobs/${job.jobId}`),
    (j) => DONE.includes(j.status),
    120_000,
    POLL_MS,
  );
  const ms = performance.now() - started;
  if (done.status !== 'SUCCESS')
    return { jobId: job.jobId, status: done.status, error: done.errorMessage ?? '', ms, outputs: null, annotations: [] };
  const [outputs, annotations] = await Promise.all([
    api(stack, token, 'GET', `/api/core/agent/jobs/${job.jobId}/results`),
    api(stack, token, 'GET', `/api/core/agent/jobs/${job.jobId}/annotations`),
  ]);
  return { jobId: job.jobId, status: done.status, ms, outputs, annotations };
}

async function run(opts, log) {
  const stack = await startHardeningStack({ namespaces: ['bench'], log });
  try {
    const token = await stack.token('bench', 'bench@bench.test');
    log(`indexing ${Object.keys(SET.documents).length} documents`);
    const indexStarted = Date.now();
    const ids = await indexDocuments(stack, token, log);
    const indexSeconds = (Date.now() - indexStarted) / 1000;
    log(`indexed in ${indexSeconds.toFixed(1)} s`);
    const fileIds = (names) => names.map((n) => ids[n]);

    // The first job loads the reader and warms the caches; it is not counted.
    const warm = await runJob(stack, token, { message: 'What is this document about?', files: { fileIds: fileIds(['summer']) } });
    log(`warm-up job: ${warm.status} in ${warm.ms.toFixed(0)} ms`);

    const rows = [];
    for (const q of SET.questions) {
      throwIfInterrupted();
      const body = { message: q.question, files: { fileIds: fileIds(q.files) }, ...(q.schema ? { output_model_schema: q.schema } : {}) };
      const job = await runJob(stack, token, body);
      const graded = grade(q, job.outputs, job.annotations);
      const right = graded.items.filter((i) => i.right).length;
      rows.push({
        id: q.id,
        kind: q.schema ? 'structured' : 'text',
        files: q.files.length,
        status: job.status,
        error: job.error,
        ms: job.ms,
        answer: job.outputs?.answer ?? null,
        ...graded,
      });
      log(
        `${q.id}: ${job.status} ${job.ms.toFixed(0)} ms, ${right}/${graded.items.length} right, answer ${JSON.stringify(job.outputs?.answer ?? job.error).slice(0, 120)}`,
      );
    }

    // A stateful conversation: the second turn continues the first through conversation_id.
    const turns = [];
    let conversationId;
    for (const [i, turn] of SET.conversation.turns.entries()) {
      throwIfInterrupted();
      const body =
        i === 0
          ? { message: turn.message, files: { fileIds: fileIds(SET.conversation.files) } }
          : { message: turn.message, conversation_id: conversationId };
      const job = await runJob(stack, token, body);
      if (job.status !== 'SUCCESS') throw new Error(`conversation turn ${i + 1} ended ${job.status}: ${job.error}`);
      conversationId ??= job.outputs.conversationId;
      if (!conversationId) throw new Error('the first turn of the conversation answered no conversationId');
      const graded = grade({ accepted: turn.accepted }, job.outputs, job.annotations);
      turns.push({
        message: turn.message,
        ms: job.ms,
        answer: job.outputs.answer,
        right: graded.items[0].right,
        cited: graded.items[0].cited,
      });
      log(`turn ${i + 1}: ${job.ms.toFixed(0)} ms, answer ${JSON.stringify(job.outputs.answer).slice(0, 120)}`);
    }

    const times = rows
      .filter((r) => r.status === 'SUCCESS')
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const count = (list, pick) => list.filter(pick).length;
    const text = rows.filter((r) => r.kind === 'text');
    const structured = rows.filter((r) => r.kind === 'structured');
    const fields = structured.flatMap((r) => r.items);
    const items = rows.flatMap((r) => r.items);
    const median = percentile(times, 50);
    return {
      pass: times.length > 0 && median <= TARGET_MS,
      documents: SET.documents,
      indexSeconds,
      jobs: rows.length,
      succeeded: times.length,
      failed: rows.filter((r) => r.status !== 'SUCCESS').map((r) => ({ id: r.id, status: r.status, error: r.error })),
      text: { questions: text.length, right: count(text, (r) => r.items[0].right), cited: count(text, (r) => r.items[0].cited) },
      structured: {
        questions: structured.length,
        whole: count(structured, (r) => r.items.every((i) => i.right)),
        fields: fields.length,
        right: count(fields, (i) => i.right),
        cited: count(fields, (i) => i.cited),
      },
      items: {
        total: items.length,
        right: count(items, (i) => i.right),
        cited: count(items, (i) => i.cited),
        rightAndCited: count(items, (i) => i.right && i.cited),
      },
      annotations: { total: rows.reduce((n, r) => n + r.annotations, 0), quoting: rows.reduce((n, r) => n + r.quotingAnnotations, 0) },
      timesMs: { median, p90: percentile(times, 90), max: times[times.length - 1], min: times[0] },
      warmupMs: warm.ms,
      conversation: turns,
      rows,
    };
  } finally {
    await stack.stop();
  }
}

const cell = (value, max = 48) => {
  const s = value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
  const one = s.replace(/\s+/g, ' ').trim();
  return (one.length > max ? `${one.slice(0, max - 1)}…` : one).replace(/\|/g, '\\|');
};
const pct = (n, of) => (of ? `${Math.round((100 * n) / of)} %` : '—');
const mark = (ok) => (ok ? 'yes' : 'no');

function markdown(r, opts, machine) {
  const f = (x) => x.toFixed(0);
  const docs = Object.values(r.documents)
    .map((p) => `\`${p}\``)
    .join(', ');
  const rows = r.rows.map((row) => {
    const n = row.items.length;
    const right = row.items.filter((i) => i.right).length;
    const cited = row.items.filter((i) => i.cited).length;
    const answer = row.status === 'SUCCESS' ? cell(row.answer) : `${row.status}: ${cell(row.error, 40)}`;
    return `| ${row.id} | ${row.kind} | ${row.files} | ${answer} | ${n === 1 ? mark(right === 1) : `${right}/${n}`} | ${n === 1 ? mark(cited === 1) : `${cited}/${n}`} | ${f(row.ms)} |`;
  });
  const [one, two] = r.conversation;
  return [
    '## Agent jobs: answers, citations and time from POST to SUCCESS',
    '',
    `\`npm run bench -- agent\` (bench/agent/) on ${machine.cpu}, ${machine.os}, Node ${machine.node}, ${machine.date}.`,
    `Five documents of ../shared/corpus (${docs}; indexed in ${r.indexSeconds.toFixed(0)} s with embeddings and passages),`,
    `then ${r.jobs} agent jobs, one per hand-written question of bench/agent/questions.json (${r.text.questions} text questions, ${r.structured.questions} with an`,
    `output_model_schema of 2–3 fields; some over several files), each created with POST /agent/jobs and polled every ${POLL_MS} ms until it ended,`,
    `after one warm-up job (${f(r.warmupMs)} ms); then a stateful conversation of two turns. Built-in planner (no LLM configured), default settings.`,
    `An answer is right when, case, accents and punctuation aside, it contains an accepted answer and at most ${EXTRA_WORDS} words more (or matches its`,
    'regular expression); a structured answer is graded field by field. It is cited when one of the annotations of the job quotes an accepted answer.',
    'The expected answers were checked in the documents and written before the engine ran; a wrong answer stays in the set.',
    '',
    '| measure | value | goal |',
    '|---|---|---|',
    `| POST to SUCCESS, median | **${f(r.timesMs.median)} ms** | at most ${TARGET_MS} ms: ${r.pass ? 'met' : 'missed'} |`,
    `| POST to SUCCESS, p90 / max | ${f(r.timesMs.p90)} / ${f(r.timesMs.max)} ms | |`,
    `| jobs that ended SUCCESS | ${r.succeeded} of ${r.jobs} | |`,
    `| text questions answered right | **${r.text.right} of ${r.text.questions}** (${pct(r.text.right, r.text.questions)}) | |`,
    `| structured: fields right / whole objects right | **${r.structured.right} of ${r.structured.fields}** (${pct(r.structured.right, r.structured.fields)}) / ${r.structured.whole} of ${r.structured.questions} | |`,
    `| accuracy, all ${r.items.total} graded answers (questions and fields) | **${pct(r.items.right, r.items.total)}** (${r.items.right}) | |`,
    `| a citation quotes the expected answer: of all answers / of the right ones | ${r.items.cited} of ${r.items.total} / ${r.items.rightAndCited} of ${r.items.right} | |`,
    `| citation precision: annotations that quote an expected answer | ${pct(r.annotations.quoting, r.annotations.total)} (${r.annotations.quoting} of ${r.annotations.total}) | |`,
    `| conversation, first turn (POST to SUCCESS) | ${f(one.ms)} ms, ${one.right ? 'right' : 'wrong'} (${cell(one.answer, 30)}) | |`,
    `| conversation, second turn via conversation_id | ${f(two.ms)} ms, ${two.right ? 'right' : 'wrong'} (${cell(two.answer, 30)}) | |`,
    '',
    '| question | kind | files | answer | right | cited | ms |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

module.exports = {
  id: 'agent',
  title: 'Agent jobs: hand-written questions over five indexed documents',
  /** Not part of a plain `npm run bench`: it indexes five documents first. Run it by name. */
  onlyWhenNamed: true,
  run,
  markdown,
};

'use strict';
/*
 * QA over real documents (`npm run bench -- documents [--split dev|heldout]`): every document of the
 * chosen split of bench/documents/questions/*.json is uploaded from ../shared/corpus to the whole
 * stack and indexed; one QA job per document asks all its questions; each answer is graded against
 * the expected answers, and each citation is checked by reading the original file back at its
 * positions (readback.js). The held-out split is run only to report: only it writes
 * docs/benchmarks.md and is held to the goals.
 */
const { mkdirSync, openAsBlob, readFileSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, extname, join, relative } = require('node:path');
const { throwIfInterrupted } = require('../lib/interrupt');
const { api, until } = require('../lib/api');
const { REPO_ROOT } = require('../lib/processes');
const { startHardeningStack } = require('../hardening/stack');
const { loadQuestionFiles } = require('./questions');
const { gradeAnswer, citationHolds } = require('./grading');
const { fileReader } = require('./readback');
const { summarise, GOALS } = require('./report');

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
const QUESTIONS_DIR = process.env.BENCH_DOCUMENTS_QUESTIONS || join(__dirname, 'questions');
const TERMINAL = ['SUCCESS', 'SKIPPED', 'FAILED'];

const mtimeOf = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

async function upload(stack, token, providerId, file) {
  const folder = `documents/${dirname(file)}/`;
  const form = new FormData();
  // A file-backed Blob: the body is streamed from the corpus, not read into memory first.
  form.append('file', await openAsBlob(join(CORPUS, file)), basename(file));
  const res = await fetch(`${stack.url}/api/core/providers/${providerId}/items?key=${encodeURIComponent(folder)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
  return (await api(stack, token, 'POST', '/api/core/files', { providerId, key: `${folder}${basename(file)}` })).id.id;
}

/**
 * A read while polling: a 502/503/504 or a timed-out request (a service busy indexing a large
 * document on a loaded machine) is read again at the next poll instead of ending the run.
 */
async function poll(stack, token, path) {
  try {
    return await api(stack, token, 'GET', path);
  } catch (err) {
    if (/: 50[234] |TimeoutError|aborted due to timeout/.test(`${err.message} ${err.name}`)) return null;
    throw err;
  }
}

/** Indexed and ready to be asked (embeddings and passages over), or FAILED / ABORTED with its message. */
async function indexed(stack, token, fileId) {
  const f = await until(
    `file ${fileId}`,
    () => poll(stack, token, `/api/core/files/${fileId}`),
    (f) =>
      f !== null &&
      (['FAILED', 'ABORTED'].includes(f.lastIndexationInfos?.status) ||
        (f.lastIndexationInfos?.status === 'SUCCESS' &&
          ['node_embedding', 'passage_indexing'].every((s) => TERMINAL.includes(f.additionalInfos?.[s]?.status)))),
    30 * 60_000,
    500,
  );
  return f.lastIndexationInfos.status === 'SUCCESS'
    ? { ok: true }
    : { ok: false, message: `${f.lastIndexationInfos.status}: ${f.lastIndexationInfos.message ?? ''}`.trim() };
}

/** One QA job over one file, POST to terminal; its results and annotations. */
async function askAll(stack, token, fileId, questions) {
  const started = performance.now();
  const job = await api(stack, token, 'POST', '/api/core/qa/jobs', {
    files: { fileIds: [fileId] },
    questions: questions.map((q) => ({ id: q.id, question: q.question, answerType: q.answerType })),
  });
  const done = await until(
    `job ${job.jobId}`,
    () => poll(stack, token, `/api/core/qa/jobs/${job.jobId}`),
    (j) => j !== null && ['SUCCESS', 'FAILED', 'ABORTED'].includes(j.status),
    10 * 60_000,
    20,
  );
  const ms = performance.now() - started;
  if (done.status !== 'SUCCESS') return { ms, error: `job ${job.jobId} ended ${done.status}: ${done.errorMessage ?? ''}` };
  const { results } = await api(stack, token, 'GET', `/api/core/qa/jobs/${job.jobId}/results`);
  const annotations = await api(stack, token, 'GET', `/api/core/qa/jobs/${job.jobId}/annotations`);
  return { ms, jobId: job.jobId, results, annotations: new Map(annotations.map((a) => [a.id.id, a])) };
}

/** The record of one answer: what the service said, its grade and its citations read back. */
async function recordOf(doc, q, result, annotations, reader) {
  const grade = gradeAnswer(q, result);
  const citations = [];
  for (const ref of result?.referenceIds ?? []) {
    const a = annotations.get(ref.id);
    const positions = a?.data?.positions ?? [];
    let back = { text: '', errors: [] };
    try {
      if (positions.length) back = await reader.readAll(positions);
    } catch (err) {
      back.errors.push(`read-back failed: ${err.message}`); // counted as a citation that misses
    }
    citations.push({ id: ref.id, content: a?.data?.content ?? null, positions, readBack: back.text, readErrors: back.errors });
  }
  const readBack = citations.map((c) => c.readBack).join('\n');
  const answerable = q.answers.length > 0;
  const holds = grade.found && answerable ? citationHolds(q, readBack, result) : null;
  const hasPosition = grade.found ? citations.length > 0 && citations.every((c) => c.positions.length > 0) : null;
  let why = grade.why;
  if (!why && grade.found && answerable && !holds) why = 'citation misses';
  return {
    id: q.id,
    file: doc.file,
    format: extname(doc.file).slice(1).toLowerCase(),
    question: q.question,
    dataType: q.answerType.dataType + (q.answerType.multiValued ? ' list' : ''),
    style: q.style,
    lure: q.lure,
    expected: q.answers,
    found: grade.found,
    rawValue: result?.rawValue ?? '',
    value: result?.answer ?? null,
    confidence: result?.confidence ?? null,
    explanation: result?.explanation ?? null,
    ...grade,
    citationHolds: holds,
    hasPosition,
    citations,
    why,
  };
}

async function run(opts, log) {
  const split = opts.split ?? 'dev';
  const documents = loadQuestionFiles(QUESTIONS_DIR, CORPUS).filter((d) => d.split === split);
  if (!documents.length) throw new Error(`no documents of split "${split}" in ${QUESTIONS_DIR}`);
  const questionCount = documents.reduce((k, d) => k + d.questions.length, 0);
  log(`split ${split}: ${documents.length} documents, ${questionCount} questions`);

  const stack = await startHardeningStack({ namespaces: ['bench'], log });
  try {
    const token = await stack.token('bench', 'bench@bench.test');
    const providers = await api(stack, token, 'GET', '/api/core/providers');
    const providerId = providers.data.find((p) => p.name === 'Only bench').id.id;
    const indexStarted = Date.now();
    for (const doc of documents) {
      throwIfInterrupted();
      doc.fileId = await upload(stack, token, providerId, doc.file);
    }
    for (const doc of documents) {
      doc.indexing = await indexed(stack, token, doc.fileId);
      log(`${doc.file}: ${doc.indexing.ok ? 'indexed' : `indexing ${doc.indexing.message}`}`);
    }
    const indexSeconds = (Date.now() - indexStarted) / 1000;

    if (process.env.BENCH_DOCUMENTS_DUMP) {
      const n = await require('./passages-dump').dumpPassages(stack, documents, 'bench', process.env.BENCH_DOCUMENTS_DUMP);
      log(`passages of ${n} questions written to ${process.env.BENCH_DOCUMENTS_DUMP} (node bench/documents/replay.js <file>)`);
    }
    let result = await askRound(stack, token, documents, split, indexSeconds, log);
    // Development only: with BENCH_DOCUMENTS_AGAIN=<file>, each change of that file restarts
    // job-orchestrator (which loads the engine as built now) and asks everything again over the
    // same indexed documents; writing "stop" into it ends the run.
    const again = process.env.BENCH_DOCUMENTS_AGAIN;
    while (again) {
      const before = mtimeOf(again);
      log(`waiting for ${again} to change (write "stop" to end)`);
      while (mtimeOf(again) === before) {
        throwIfInterrupted();
        await new Promise((r) => setTimeout(r, 1000));
      }
      if (readFileSync(again, 'utf8').trim() === 'stop') break;
      stack.kill('job-orchestrator', 'SIGTERM');
      await new Promise((r) => setTimeout(r, 5000));
      result = await askRound(stack, token, documents, split, indexSeconds, log);
      const t = result.summary;
      log(
        `round: right ${t.rightPct?.toFixed(1)} %, unanswerable answered ${t.unanswerableAnsweredPct?.toFixed(1)} %, ` +
          `citation holds ${t.citationHoldsPct?.toFixed(1)} %, position ${t.hasPositionPct?.toFixed(1)} %, job median ${t.jobMedianMs?.toFixed(0)} ms`,
      );
    }
    return result;
  } finally {
    await stack.stop();
  }
}

/** Every document's questions asked once (after a warm-up job), graded and summarised. */
async function askRound(stack, token, documents, split, indexSeconds, log) {
  // A first job loads the engine and warms its caches; it is not counted.
  const warm = documents.find((d) => d.indexing.ok);
  if (warm) await askAll(stack, token, warm.fileId, warm.questions.slice(0, 1));

  const records = [];
  const jobMs = [];
  for (const doc of documents) {
    throwIfInterrupted();
    const reader = fileReader(join(CORPUS, doc.file), {
      loadTree: () => api(stack, token, 'GET', `/api/core/files/${doc.fileId}/document?format=json`),
    });
    if (!doc.indexing.ok) {
      // Not indexed: every question of the document counts as wrong, unanswerable ones too.
      for (const q of doc.questions)
        records.push({
          ...(await recordOf(doc, q, null, new Map(), reader)),
          right: false,
          exact: false,
          why: `indexing ${doc.indexing.message}`,
        });
      continue;
    }
    const job = await askAll(stack, token, doc.fileId, doc.questions);
    jobMs.push(job.ms);
    const byId = new Map((job.results ?? []).map((r) => [r.questionId, r]));
    for (const q of doc.questions) records.push(await recordOf(doc, q, byId.get(q.id) ?? null, job.annotations ?? new Map(), reader));
    const right = records.filter((r) => r.file === doc.file && r.right).length;
    log(`${doc.file}: ${right}/${doc.questions.length} right, job ${job.ms.toFixed(0)} ms${job.error ? ` (${job.error})` : ''}`);
  }
  const summary = summarise(records, jobMs);
  // The failures alone, with what the service said and what its citations read back, for reading.
  mkdirSync(join(REPO_ROOT, 'bench/results'), { recursive: true });
  const failuresFile = join(
    REPO_ROOT,
    'bench/results',
    `documents-${split}-failures-${new Date().toISOString().replace(/[:]/g, '-')}.json`,
  );
  writeFileSync(
    failuresFile,
    JSON.stringify(
      records.filter((r) => r.why),
      null,
      2,
    ),
  );
  log(`failures: ${relative(REPO_ROOT, failuresFile)}`);
  // Every answer with its confidence, to choose the engine's threshold on the dev split.
  writeFileSync(failuresFile.replace('-failures-', '-answers-'), JSON.stringify(records, null, 1));
  const goals = GOALS.map((g) => ({ ...g, value: g.of(summary), met: g.met(g.of(summary)) }));
  return {
    // Goals hold the held-out split only: a dev run reports them without failing.
    pass: split === 'heldout' ? goals.every((g) => g.met) : true,
    split,
    documents: documents.map((d) => ({ file: d.file, questions: d.questions.length, indexing: d.indexing })),
    indexSeconds,
    failuresFile: relative(REPO_ROOT, failuresFile),
    summary,
    goals,
    records,
  };
}

module.exports = {
  id: 'documents',
  title: 'QA over real documents: answers graded and citations read back',
  /** Indexes every document of the split first; run it by name. */
  onlyWhenNamed: true,
  /** Only the held-out split is reported in docs/benchmarks.md; a dev run prints and keeps its JSON. */
  writesDoc: (opts) => (opts.split ?? 'dev') === 'heldout',
  run,
  markdown: (result, opts, machine) => require('./report').markdown(result, opts, machine),
};

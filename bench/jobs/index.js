'use strict';
/*
 * A QA job as a user runs one (`npm run bench -- jobs`): ten PDFs of ../shared/corpus are uploaded
 * and indexed by the whole stack (started as `npm start` starts it, on a private database, NATS
 * prefix, storage root and ports), then a QA job of five questions over the ten files is created
 * and polled until it is SUCCESS, several times; the time from POST to SUCCESS and the memory of
 * the job-orchestrator process (with its engine loaded) are reported. The built-in engine answers.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { throwIfInterrupted } = require('../lib/interrupt');
const { api, until } = require('../lib/api');
const { REPO_ROOT } = require('../lib/processes');
const { startHardeningStack } = require('../hardening/stack');

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
/** Born-digital PDFs (no OCR), 1 to 14 pages: what a team's folder of papers and reports looks like. */
const PDFS = [
  'pdf/docling_2305.03393v1-pg9.pdf',
  'pdf/docling_code_and_formula.pdf',
  'pdf/docling_multi_page.pdf',
  'pdf/docling_picture_classification.pdf',
  'pdf/unstructured_layout-parser-paper-fast.pdf',
  'pdf/unstructured_multi-column-2p.pdf',
  'pdf/unstructured_multi-column.pdf',
  'pdf/unstructured_embedded-images-tables.pdf',
  'pdf/pdfjs_tracemonkey.pdf',
  'pdf/pdfminer_naacl06-shinyama.pdf',
];
const QUESTIONS = [
  { question: 'Which CPU were the inference timing results obtained on?', answerType: { dataType: 'STRING' } },
  { question: 'How many samples does the PubTabNet data set have?', answerType: { dataType: 'INT' } },
  { question: 'What is a trace tree?', answerType: { dataType: 'STRING' } },
  { question: 'In which year was the paper on dense passage retrieval published?', answerType: { dataType: 'INT' } },
  { question: 'Does LayoutParser support OCR?', answerType: { dataType: 'BOOL' } },
];
const TARGET_MS = 2000;

/** VmRSS and VmHWM (peak) of a process, in MiB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

async function run(opts, log) {
  const stack = await startHardeningStack({ namespaces: ['bench'], log });
  try {
    const token = await stack.token('bench', 'bench@bench.test');
    const providers = await api(stack, token, 'GET', '/api/core/providers');
    const providerId = providers.data.find((p) => p.name === 'Only bench').id.id;
    log(`indexing ${PDFS.length} PDFs`);
    const indexStarted = Date.now();
    const fileIds = [];
    for (const path of PDFS) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(join(CORPUS, path))]), path.split('/').pop());
      const res = await fetch(`${stack.url}/api/core/providers/${providerId}/items?key=bench/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload ${path}: ${res.status} ${await res.text()}`);
      fileIds.push((await api(stack, token, 'POST', '/api/core/files', { providerId, key: `bench/${path.split('/').pop()}` })).id.id);
    }
    // Indexed, with the asynchronous steps the engine reads (embeddings, passages) over.
    for (const id of fileIds) {
      await until(
        `file ${id}`,
        () => api(stack, token, 'GET', `/api/core/files/${id}`),
        (f) =>
          f.lastIndexationInfos.status === 'SUCCESS' &&
          ['node_embedding', 'passage_indexing'].every((s) => ['SUCCESS', 'SKIPPED', 'FAILED'].includes(f.additionalInfos[s]?.status)),
        15 * 60_000,
        500,
      );
    }
    const indexSeconds = (Date.now() - indexStarted) / 1000;
    log(`indexed in ${indexSeconds.toFixed(1)} s`);

    const runs = Number(process.env.BENCH_JOB_RUNS || 7);
    const times = [];
    let answered = 0;
    let cited = 0;
    for (let i = 0; i <= runs; i++) {
      throwIfInterrupted();
      const started = performance.now();
      const job = await api(stack, token, 'POST', '/api/core/qa/jobs', { files: { fileIds }, questions: QUESTIONS });
      const done = await until(
        `job ${job.jobId}`,
        () => api(stack, token, 'GET', `/api/core/qa/jobs/${job.jobId}`),
        (j) => ['SUCCESS', 'FAILED', 'ABORTED'].includes(j.status),
        120_000,
        20,
      );
      const ms = performance.now() - started;
      if (done.status !== 'SUCCESS') throw new Error(`job ${job.jobId} ended ${done.status}: ${done.errorMessage}`);
      if (i === 0) {
        log(`warm-up job: ${ms.toFixed(0)} ms`);
        continue; // the first loads the engine and warms the caches
      }
      times.push(ms);
      const { results } = await api(stack, token, 'GET', `/api/core/qa/jobs/${job.jobId}/results`);
      answered = results.filter((r) => r.found).length;
      cited = results.filter((r) => r.referenceIds.length > 0).length;
      log(`job ${i}: ${ms.toFixed(0)} ms`);
    }
    times.sort((a, b) => a - b);
    const memory = memoryOf(stack.pid('job-orchestrator'));
    const median = times[Math.floor(times.length / 2)];
    return {
      pass: median < TARGET_MS,
      files: PDFS.length,
      questions: QUESTIONS.length,
      runs,
      indexSeconds,
      medianMs: median,
      minMs: times[0],
      maxMs: times[times.length - 1],
      answered,
      cited,
      memory,
    };
  } finally {
    await stack.stop();
  }
}

function markdown(r, opts, machine) {
  const f = (x) => x.toFixed(0);
  return [
    '## AI jobs: a QA job from POST to SUCCESS',
    '',
    `\`npm run bench -- jobs\` (bench/jobs/) on ${machine.cpu}, ${machine.os}, Node ${machine.node}, ${machine.date}.`,
    `${r.files} born-digital PDFs of ../shared/corpus (1 to 14 pages; indexed in ${r.indexSeconds.toFixed(0)} s with embeddings and passages),`,
    `then a QA job of ${r.questions} questions over all ten, created with POST /qa/jobs and polled every 20 ms until SUCCESS;`,
    `${r.runs} jobs after one warm-up job. Built-in engine, default settings (JOB_CONCURRENCY 2, one replica of each service).`,
    '',
    '| measure | value | goal |',
    '|---|---|---|',
    `| POST to SUCCESS, median | **${f(r.medianMs)} ms** | under ${TARGET_MS} ms: ${r.pass ? 'met' : 'missed'} |`,
    `| POST to SUCCESS, min / max | ${f(r.minMs)} / ${f(r.maxMs)} ms | |`,
    `| questions answered (found) / with citations | ${r.answered} / ${r.cited} of ${r.questions} | |`,
    `| job-orchestrator memory after the runs, RSS / peak | ${f(r.memory.rssMiB)} / ${f(r.memory.peakMiB)} MiB | |`,
    '',
  ].join('\n');
}

module.exports = {
  id: 'jobs',
  title: 'AI jobs: a QA job of five questions over ten indexed PDFs',
  /** Not part of a plain `npm run bench`: it indexes ten documents first. Run it by name. */
  onlyWhenNamed: true,
  run,
  markdown,
};

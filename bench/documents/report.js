'use strict';
/* Totals of the graded answers of a `documents` run, its goals and its section of docs/benchmarks.md. */

const pct = (n, d) => (d ? (100 * n) / d : null);
const fmtPct = (x) => (x === null ? 'n/a' : `${x.toFixed(1)} %`);

function quantile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Answerable right (lenient and exact) and unanswerable answered, for the records of one group. */
function tally(records) {
  const answerable = records.filter((r) => r.expected.length > 0);
  const unanswerable = records.filter((r) => r.expected.length === 0);
  return {
    questions: records.length,
    answerable: answerable.length,
    right: answerable.filter((r) => r.right).length,
    exact: answerable.filter((r) => r.exact).length,
    unanswerable: unanswerable.length,
    unanswerableAnswered: unanswerable.filter((r) => r.found).length,
  };
}

function groupBy(records, key) {
  const groups = {};
  for (const r of records) (groups[key(r)] ??= []).push(r);
  return Object.fromEntries(
    Object.entries(groups)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, rs]) => [k, tally(rs)]),
  );
}

function summarise(records, jobMs) {
  const found = records.filter((r) => r.found);
  const foundAnswerable = found.filter((r) => r.expected.length > 0);
  const sorted = [...jobMs].sort((a, b) => a - b);
  const all = tally(records);
  return {
    ...all,
    rightPct: pct(all.right, all.answerable),
    exactPct: pct(all.exact, all.answerable),
    unanswerableAnsweredPct: pct(all.unanswerableAnswered, all.unanswerable),
    found: found.length,
    foundAnswerable: foundAnswerable.length,
    citationHolds: foundAnswerable.filter((r) => r.citationHolds).length,
    citationHoldsPct: pct(foundAnswerable.filter((r) => r.citationHolds).length, foundAnswerable.length),
    hasPosition: found.filter((r) => r.hasPosition).length,
    hasPositionPct: pct(found.filter((r) => r.hasPosition).length, found.length),
    byType: groupBy(records, (r) => r.dataType),
    byFormat: groupBy(records, (r) => r.format),
    byStyle: groupBy(records, (r) => r.style),
    lure: tally(records.filter((r) => r.lure)),
    jobs: sorted.length,
    jobMedianMs: quantile(sorted, 0.5),
    jobP95Ms: quantile(sorted, 0.95),
    failures: records.filter((r) => r.why).length,
  };
}

/** The goals of the held-out split. */
const GOALS = [
  { label: 'answerable questions right (lenient)', goal: 'at least 75 %', of: (s) => s.rightPct, met: (v) => v !== null && v >= 75 },
  {
    label: 'unanswerable questions answered',
    goal: 'at most 10 %',
    of: (s) => s.unanswerableAnsweredPct,
    met: (v) => v === null || v <= 10,
  },
  {
    label: 'citation holds the answer, of found answers',
    goal: 'at least 95 %',
    of: (s) => s.citationHoldsPct,
    met: (v) => v === null || v >= 95,
  },
  {
    label: 'every citation has a position, of found answers',
    goal: '100 %',
    of: (s) => s.hasPositionPct,
    met: (v) => v === null || v >= 100,
  },
  { label: 'QA job POST to SUCCESS, median', goal: 'under 2000 ms', of: (s) => s.jobMedianMs, met: (v) => v !== null && v < 2000 },
];

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 120);

function groupTable(title, groups) {
  const rows = Object.entries(groups).map(
    ([k, t]) =>
      `| ${k} | ${t.answerable} | ${fmtPct(pct(t.right, t.answerable))} | ${fmtPct(pct(t.exact, t.answerable))} | ${t.unanswerable} | ${fmtPct(pct(t.unanswerableAnswered, t.unanswerable))} |`,
  );
  return [`| ${title} | answerable | right | exact | unanswerable | answered |`, '|---|---|---|---|---|---|', ...rows, ''];
}

/** How far a missed goal is from its bound, in the goal's own unit. */
function shortfall(g) {
  const bound = Number(/(\d+(?:\.\d+)?)/.exec(g.goal)?.[1]);
  if (g.value === null || !Number.isFinite(bound)) return '';
  const by = Math.abs(g.value - bound);
  return g.label.startsWith('QA job') ? ` by ${by.toFixed(0)} ms` : ` by ${by.toFixed(1)} points`;
}

function markdown(r, opts, machine) {
  const s = r.summary;
  const ms = (x) => (x === null ? 'n/a' : `${x.toFixed(0)} ms`);
  const value = (g) => (g.label.startsWith('QA job') ? ms(g.value) : fmtPct(g.value));
  const failures = r.records.filter((x) => x.why).slice(0, 15);
  return [
    '## QA over real documents: answers graded, citations read back',
    '',
    `\`npm run bench -- documents --split ${r.split}\` (bench/documents/) on ${machine.cpu}, ${machine.os}, Node ${machine.node}, ${machine.date}.`,
    `Split **${r.split}**: ${r.documents.length} documents of ../shared/corpus, ${s.questions} questions (${s.answerable} answerable, ${s.unanswerable} unanswerable)`,
    `from bench/documents/questions/*.json, written by people from the documents. Each document is uploaded and indexed by the`,
    `whole stack (indexed in ${r.indexSeconds.toFixed(0)} s), then one QA job per document asks all its questions (after one warm-up job). Built-in engine, default settings.`,
    '',
    'An answerable question is right when the answer matches the expected one: STRING by SQuAD token F1 >= 0.5 against the best',
    'alternative (exact: the same after normalisation), lists by item F1 >= 0.5, INT / FLOAT / DATE / BOOL / ENUM by the typed value.',
    'An unanswerable question is right when nothing is found. A citation holds the answer when the text read back from the',
    'original file at its positions contains the expected answer (lines of the source; the sheet cell; the words of the PDF text',
    "layer whose centre lies in the box; for images and scanned pages the OCR words of the stored node tree, since OCR'ing again",
    'would be too slow; the DOCX/DOC paragraph); BOOL and ENUM citations must hold half of the evidence quote.',
    '',
    'Questions are split by document into dev (used while changing the engine) and held-out. Only the held-out split writes',
    'this section and is held to the goals; it is run once per engine change to report, never to tune.',
    '',
    '| measure | value | goal |',
    '|---|---|---|',
    ...r.goals.map((g) => `| ${g.label} | **${value(g)}** | ${g.goal}: ${g.met ? 'met' : `missed${shortfall(g)}`} |`),
    `| answerable questions exact | ${fmtPct(s.exactPct)} | |`,
    `| QA job POST to SUCCESS, p95 (${s.jobs} jobs) | ${ms(s.jobP95Ms)} | |`,
    `| lure questions right | ${s.lure.right + (s.lure.unanswerable - s.lure.unanswerableAnswered)} of ${s.lure.questions} | |`,
    '',
    ...groupTable('answer type', s.byType),
    ...groupTable('format', s.byFormat),
    ...groupTable('question style', s.byStyle),
    ...(r.documents.some((d) => !d.indexing.ok)
      ? [
          'Not indexed (their questions count as wrong): ' +
            r.documents
              .filter((d) => !d.indexing.ok)
              .map((d) => `${d.file} (${d.indexing.message})`)
              .join(', '),
          '',
        ]
      : []),
    `Failures (${s.failures}; the first ${failures.length}, all in the run's JSON record in bench/results/):`,
    '',
    '| question | expected | got | why |',
    '|---|---|---|---|',
    ...failures.map(
      (f) =>
        `| ${f.id}: ${cell(f.question)} | ${cell(f.expected.join(' / ') || '(none)')} | ${cell(f.found ? f.rawValue : '(not found)')} | ${f.why} |`,
    ),
    '',
  ].join('\n');
}

module.exports = { summarise, markdown, GOALS, quantile, shortfall };

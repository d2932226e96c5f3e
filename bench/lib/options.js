'use strict';
/* Command-line flags, with environment variables as defaults: flags win. */
const { parseArgs } = require('node:util');
const { parseSizes } = require('../scale/stats');

const USAGE = `npm run bench -- [scenario ...] [options]

Scenarios: providers (the default), and by name only: performance (providers, then the byte path of
bench:storage, in one run), hardening, jobs, agent, documents, scale

Options (environment variable in brackets):
  --duration <s>      measured seconds per target            [BENCH_DURATION, default 10]
  --warmup <s>        warm-up seconds before each measurement [BENCH_WARMUP, default 3]
  --connections <n>   concurrent HTTP connections            [BENCH_CONNECTIONS, default 50]
  --no-breakdown      skip the per-hop measurements (shorter run)
  --profile           write V8 CPU profiles of the servers to bench/results/profiles/
  --split <name>      documents: the question split, dev or heldout (only heldout
                      updates docs/benchmarks.md)              [default dev]
  --sizes <list>      scale: namespace sizes, e.g. 10k,100k     [BENCH_SCALE_SIZES, default 10k,100k,1M]
  --keep              scale: keep each size's database (and reuse a kept one)
  --files <n>         providers: IndexedFiles of the deep-paging namespace, at least 400
                      (a smaller one is a quick check)          [BENCH_DEEP_FILES, default 100000]
  --no-write          print the results without updating docs/benchmarks.md
  -h, --help`;

function positiveNumber(name, value, { integer = false, allowZero = false } = {}) {
  const n = Number(value);
  const ok = Number.isFinite(n) && (allowZero ? n >= 0 : n > 0) && (!integer || Number.isInteger(n));
  if (!ok) throw new Error(`--${name} must be a ${integer ? 'whole ' : ''}number${allowZero ? '' : ' above 0'} (got "${value}")`);
  return n;
}

/** Page 20 of 20 files must exist. */
function deepFiles(value) {
  const n = positiveNumber('files', value, { integer: true });
  if (n < 400) throw new Error(`--files must be at least 400, page 20 of 20 files (got "${value}")`);
  return n;
}

function parseOptions(argv, env = process.env) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      split: { type: 'string' },
      sizes: { type: 'string' },
      keep: { type: 'boolean', default: false },
      files: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      'no-breakdown': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const split = values.split ?? 'dev';
  if (!['dev', 'heldout'].includes(split)) throw new Error(`--split must be dev or heldout (got "${split}")`);
  return {
    help: values.help,
    scenarios: positionals,
    durationS: positiveNumber('duration', values.duration ?? env.BENCH_DURATION ?? 10),
    warmupS: positiveNumber('warmup', values.warmup ?? env.BENCH_WARMUP ?? 3, { allowZero: true }),
    connections: positiveNumber('connections', values.connections ?? env.BENCH_CONNECTIONS ?? 50, { integer: true }),
    split,
    sizes: parseSizes(values.sizes ?? env.BENCH_SCALE_SIZES ?? '10k,100k,1M'),
    keep: values.keep,
    deepFiles: deepFiles(values.files ?? env.BENCH_DEEP_FILES ?? 100_000),
    profile: values.profile,
    write: !values['no-write'],
    breakdown: !values['no-breakdown'],
  };
}

module.exports = { parseOptions, USAGE };

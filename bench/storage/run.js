#!/usr/bin/env node
/*
 * Storage throughput: a 1 GiB file uploaded through the gateway (multipart) and downloaded back
 * (content endpoint), beside `cp` of the same file and a bare one-process Node server doing the same
 * transfers, on the same disk in the same run, with the CPU per GiB and the peak RSS (VmHWM) of the
 * gateway and the storage service (bench/storage/transfers.js).
 *
 *   npm run bench:storage                      1 GiB, writes docs/benchmarks.md (storage section)
 *   npm run bench:storage -- --size-mib 256 --no-write
 *   npm run bench:storage -- --profile         also V8 CPU profiles in bench/results/profiles/
 *
 * Targets: upload at least 50% of cp + fsync's throughput, download at least 50% of cp's; no process
 * above 200 MB RSS.
 * Exit code: 0 targets met, 2 a target missed, 1 the run failed. The big files are removed at the end.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { parseArgs } = require('node:util');
const { writeSection } = require('../lib/markdown-section');
const { interrupt } = require('../lib/interrupt');
const { REPO_ROOT, stopAll } = require('../lib/processes');
const { measureTransfers, section } = require('./transfers');

const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
const PREAMBLE = `# Benchmarks

Each section is written by its own benchmark (see the command at its top) and rewritten only by
it; the machine, date and load are part of every result, so compare runs made on the same machine.
`;

const log = (line) => process.stdout.write(`[bench:storage] ${line}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      'size-mib': { type: 'string', default: process.env.BENCH_STORAGE_MIB ?? '1024' },
      runs: { type: 'string', default: process.env.BENCH_STORAGE_RUNS ?? '3' },
      dir: { type: 'string', default: process.env.BENCH_STORAGE_DIR ?? join(REPO_ROOT, 'data', 'bench-storage') },
      'no-write': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const sizeMiB = Number(values['size-mib']);
  if (!Number.isInteger(sizeMiB) || sizeMiB < 1) throw new Error(`--size-mib must be a whole number above 0 (got ${values['size-mib']})`);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number above 0 (got ${values.runs})`);
  return { sizeMiB, runs, dir: values.dir, write: !values['no-write'], profile: values.profile, help: values.help };
}

async function main() {
  const opts = options();
  if (opts.help) {
    process.stdout.write(
      readFileSync(__filename, 'utf8')
        .split('\n')
        .slice(2, 15)
        .join('\n')
        .replace(/^ \*? ?/gm, '') + '\n',
    );
    return 0;
  }
  const r = await measureTransfers(opts, log);
  const body = section(r);
  process.stdout.write(`\n${body}\n\n`);
  if (opts.write) {
    writeSection(DOC, 'storage', body, PREAMBLE);
    log(`wrote the storage section of ${relative(REPO_ROOT, DOC)}`);
  }
  return Object.values(r.targets).every(Boolean) ? 0 : 2;
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interrupt(signal));

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[bench:storage] failed: ${err.stack || err.message}\n`);
    stopAll().finally(() => process.exit(1));
  },
);

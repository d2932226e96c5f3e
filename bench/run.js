#!/usr/bin/env node
/*
 * Benchmarks of docintel's HTTP paths against the built apps (npm run bench builds first).
 *   npm run bench                       every scenario
 *   npm run bench -- providers --duration 30
 * Each scenario rewrites its own section of docs/benchmarks.md and leaves a JSON record in
 * bench/results/. Exit code: 0 all targets met, 2 a target missed, 1 the run failed.
 */
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { machineBusyShare } = require('./lib/cpu');
const { machineInfo } = require('./lib/machine');
const { writeSection } = require('./lib/markdown-section');
const { parseOptions, USAGE } = require('./lib/options');
const { interrupt, throwIfInterrupted } = require('./lib/interrupt');
const { stopAll, REPO_ROOT } = require('./lib/processes');

// A scenario may write its own document (doc, preamble), be run only by name (onlyWhenNamed) and
// write its section only for some options (writesDoc).
const SCENARIOS = [
  require('./scenarios/providers'),
  require('./scenarios/performance'),
  require('./hardening'),
  require('./jobs'),
  require('./agent'),
  require('./documents'),
  require('./scale'),
  require('./console'),
];
const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
const PREAMBLE = `# Benchmarks

Each section is written by its own benchmark (see the command at its top) and rewritten only by
it; the machine, date and load are part of every result, so compare runs made on the same machine.
`;

const log = (line) => process.stdout.write(`[bench] ${line}\n`);

async function main() {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 1;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = opts.scenarios.filter((s) => !SCENARIOS.some((sc) => sc.id === s));
  if (unknown.length) {
    process.stderr.write(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}\n`);
    return 1;
  }
  const chosen = opts.scenarios.length ? SCENARIOS.filter((s) => opts.scenarios.includes(s.id)) : SCENARIOS.filter((s) => !s.onlyWhenNamed);
  mkdirSync(join(REPO_ROOT, 'bench/results'), { recursive: true });
  const busy = await machineBusyShare();
  if (busy !== null && busy > 0.2) {
    log(`warning: the machine is already ${Math.round(busy * 100)}% busy before the benchmark starts; expect lower numbers`);
  }

  let allPass = true;
  for (const scenario of chosen) {
    throwIfInterrupted();
    log(`${scenario.title}`);
    const machine = machineInfo();
    const result = await scenario.run(opts, log);
    const md = scenario.markdown(result, opts, machine);
    process.stdout.write(`\n${md}\n\n`);
    const stamp = machine.date.replace(/[:]/g, '-');
    writeFileSync(
      join(REPO_ROOT, 'bench/results', `${scenario.id}-${stamp}.json`),
      JSON.stringify({ scenario: scenario.id, machine, options: opts, result }, null, 2),
    );
    // A scenario may write its section only for some runs (documents: the held-out split only).
    if (opts.write && (scenario.writesDoc?.(opts) ?? true)) {
      const doc = scenario.doc ?? DOC;
      writeSection(doc, scenario.id, md, scenario.preamble ?? PREAMBLE);
      log(`updated ${relative(REPO_ROOT, doc)} (section ${scenario.id})`);
    }
    allPass &&= result.pass;
  }
  return allPass ? 0 : 2;
}

// Ctrl-C / SIGTERM: the measurement stops and the scenario's finally blocks stop the processes
// and drop the database; a second signal exits at once.
let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (signalled) process.exit(130);
    signalled = true;
    log(`${signal}: stopping and cleaning up (again to force)`);
    interrupt();
  });
}

main()
  .then((code) => {
    process.exitCode = signalled ? 130 : code;
  })
  .catch((err) => {
    if (signalled) {
      process.exitCode = 130;
      return;
    }
    process.stderr.write(`\nbenchmark failed: ${err.stack || err.message}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());

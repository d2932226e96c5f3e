import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformSync } from '@swc/core';
import { ConfigError, loadConfig } from '@docintel/config';
import { IndexingEnv } from './indexing.env';

// Each run allocates a few hundred MiB in a process of its own: seconds on a busy machine.
jest.setTimeout(120_000);

/**
 * Full (mark-compact) collections while a process keeps about 400 MiB of small objects, with
 * applyHeapGrowth(HEAP_GROWING_PERCENT) called at its start as main.ts does, or left to V8.
 */
async function fullCollections(percent: number | undefined): Promise<number> {
  const { code } = transformSync(readFileSync(join(__dirname, 'heap-growth.ts'), 'utf8'), {
    filename: 'heap-growth.ts',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const script = `
    const m = { exports: {} };
    new Function('module', 'exports', 'require', ${JSON.stringify(code)})(m, m.exports, require);
    const percent = ${JSON.stringify(percent ?? null)};
    if (percent !== null) m.exports.applyHeapGrowth({ HEAP_GROWING_PERCENT: percent });
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let full = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
    }).observe({ entryTypes: ['gc'] });
    const kept = [];
    for (let i = 0; i < 100; i++) kept.push(Array.from({ length: 100000 }, (_, j) => ({ j })));
    setTimeout(() => process.stdout.write(String(full)), 50);
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
  return Number(stdout);
}

describe('HEAP_GROWING_PERCENT', () => {
  it('defaults to 50 and refuses values outside 10-300, naming the variable', () => {
    expect(loadConfig(IndexingEnv, {}).HEAP_GROWING_PERCENT).toBe(50);
    expect(loadConfig(IndexingEnv, { HEAP_GROWING_PERCENT: '25' }).HEAP_GROWING_PERCENT).toBe(25);
    for (const bad of ['5', '1000', 'half']) {
      try {
        loadConfig(IndexingEnv, { HEAP_GROWING_PERCENT: bad });
        throw new Error(`${bad} was accepted`);
      } catch (e) {
        expect((e as ConfigError).problems).toEqual([expect.stringMatching(new RegExp(`^HEAP_GROWING_PERCENT \\("${bad}"\\): `))]);
      }
    }
  });

  it('makes the old space grow in smaller steps: more full collections for the same live data than V8 alone', async () => {
    const byV8 = await fullCollections(undefined);
    const small = await fullCollections(10);
    expect(small).toBeGreaterThan(byV8);
  });
});

'use strict';
/*
 * No folder of an app imports a folder that imports it back, except the pairs docs/architecture.md
 * lists: the count per app is read from that document, so a new pair fails here until it is
 * removed or written down.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { apps, mutualFolderPairs } = require('../folder-imports');

const ARCHITECTURE = join(__dirname, '..', '..', 'docs', 'architecture.md');

/** The counts of the table in docs/architecture.md: | `app` | n | ... |. */
function documentedCounts() {
  const section = readFileSync(ARCHITECTURE, 'utf8').split('<!-- folder-imports -->')[1] ?? '';
  return Object.fromEntries([...section.matchAll(/^\| `([a-z-]+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]));
}

test('every app has as many pairs of folders importing each other as docs/architecture.md states', () => {
  const documented = documentedCounts();
  for (const app of [...apps(), 'console']) {
    const pairs = mutualFolderPairs(app);
    assert.equal(
      pairs.length,
      documented[app],
      `${app}: ${pairs.map((p) => `${p.folders.join(' <-> ')} (${[...p.there, ...p.back].join(', ')})`).join('; ') || 'no pair'}`,
    );
  }
});

test('a pair is found from the imports of either side, and an app root file is no folder', () => {
  const appsDir = mkdtempSync(join(tmpdir(), 'folder-imports-'));
  const root = join(appsDir, 'app');
  try {
    mkdirSync(join(root, 'src', 'a'), { recursive: true });
    mkdirSync(join(root, 'src', 'b'), { recursive: true });
    writeFileSync(join(root, 'src', 'main.ts'), "import { a } from './a/a';\nexport const env = a;\n");
    writeFileSync(join(root, 'src', 'a', 'a.ts'), "import { env } from '../main';\nexport const a = env;\n");
    writeFileSync(join(root, 'src', 'b', 'b.ts'), "export { a } from '../a/a';\n");
    assert.equal(mutualFolderPairs('app', appsDir).length, 0);
    writeFileSync(join(root, 'src', 'a', 'uses-b.ts'), "import { a } from '../b/b';\nexport default a;\n");
    writeFileSync(join(root, 'src', 'a', 'uses-b.spec.ts'), "import '../b/b';\n");
    const pairs = mutualFolderPairs('app', appsDir);
    assert.deepEqual(
      pairs.map((p) => p.folders),
      [['a', 'b']],
    );
    assert.deepEqual(pairs[0].there, ['a/uses-b.ts: ../b/b']);
  } finally {
    rmSync(appsDir, { recursive: true, force: true });
  }
});

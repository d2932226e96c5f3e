'use strict';
/*
 * Pairs of folders of an app that import each other (a -> b and b -> a), from the relative imports
 * of its product code (specs left out; the app's root files, main.ts and its configuration, are the
 * composition root and not a folder). docs/architecture.md states the count per app.
 *
 *   node scripts/folder-imports.js [app ...]     prints each app's pairs and the imports behind them
 */
const { readdirSync, readFileSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');
const ts = require('typescript');

const APPS_DIR = join(__dirname, '..', 'apps');
const isProductCode = (name) => /\.tsx?$/.test(name) && !/\.(spec|int-spec|e2e-spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return isProductCode(e.name) ? [path] : [];
  });
}

/** The top folder of `file` under `root`, or null for the root's own files. */
function folderOf(root, file) {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Every import of one folder from another: Map of "a -> b" to the importing files and specifiers. */
function folderImports(root) {
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(root, resolve(dirname(file), fileName));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${relative(root, file)}: ${fileName}`]);
    }
  }
  return edges;
}

/** The pairs of folders of an app's src/ that import each other, each with the imports both ways. */
function mutualFolderPairs(app, appsDir = APPS_DIR) {
  const edges = folderImports(join(appsDir, app, 'src'));
  const pairs = [];
  for (const [key, there] of edges) {
    const [a, b] = key.split(' -> ');
    const back = edges.get(`${b} -> ${a}`);
    if (back && a < b) pairs.push({ folders: [a, b], there, back });
  }
  return pairs;
}

const apps = () => readdirSync(APPS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'console').map((e) => e.name);

if (require.main === module) {
  for (const app of process.argv.slice(2).length ? process.argv.slice(2) : apps()) {
    const pairs = mutualFolderPairs(app);
    console.log(`${app}: ${pairs.length} pair(s) of folders importing each other`);
    for (const p of pairs) {
      console.log(`  ${p.folders.join(' <-> ')}`);
      for (const i of p.there) console.log(`    ${i}`);
      for (const i of p.back) console.log(`    ${i}`);
    }
  }
}

module.exports = { mutualFolderPairs, apps };

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const LIB = join(__dirname, '..');
const read = (path: string) => readFileSync(join(LIB, path), 'utf8');

describe('the committed OpenAPI document and types', () => {
  it('src/schema.ts is what openapi-typescript generates from openapi.json (run npm run openapi when not)', async () => {
    // openapi-typescript's dependencies are ES modules Jest's CommonJS runtime cannot load: the
    // generator (its Node API, in memory) runs in Node and prints what it would write.
    const { stdout } = await promisify(execFile)(process.execPath, [join(LIB, 'scripts/generate-schema.mjs'), '--stdout'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(read('src/schema.ts')).toBe(stdout);
  }, 60_000);

  it('openapi.json is canonical: two-space JSON, final newline, keys sorted below the top level', () => {
    const text = read('openapi.json');
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(Object.keys(doc).slice(0, 2)).toEqual(['openapi', 'info']);
    const unsorted: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${at}[${i}]`));
      if (node === null || typeof node !== 'object') return;
      const keys = Object.keys(node);
      if (at && keys.join('\n') !== [...keys].sort().join('\n')) unsorted.push(at);
      for (const k of keys) walk((node as Record<string, unknown>)[k], `${at}/${k}`);
    };
    walk(doc, '');
    expect(unsorted).toEqual([]);
  });
});

describe('the runtime files', () => {
  // The console runs them in browsers: no Node built-ins, no Node globals.
  const runtime = readdirSync(join(LIB, 'src')).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));

  it.each(runtime)('%s imports only openapi-fetch and its siblings, and uses no Node global', (file) => {
    const source = read(`src/${file}`);
    const imports = [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((m) => m !== 'openapi-fetch' && !m.startsWith('./'))).toEqual([]);
    expect(source).not.toMatch(/\b(require\(|process\.|Buffer\b|__dirname|NodeJS\.)/);
  });
});

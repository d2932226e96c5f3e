import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestStack } from '@docintel/testing';
import { CORPUS, eventually, Indexer, TERMINAL, type IndexedFile } from './support/indexing';

/**
 * The corpus run: every document of ../shared/corpus goes through the whole pipeline as a client
 * would send it (upload, POST /files, poll), and must end SUCCESS (valid documents) or FAILED with a
 * message (broken ones), with the service serving throughout. Parsing quality (text recall, tables,
 * pages) is libs/parsing's corpus test; this run checks what the pipeline adds: streaming the bytes
 * from storage, storing every tree in batches, committing, and the status a user sees.
 * Embeddings are turned off in the namespace (a rule), to keep the run to parsing.
 */

interface Entry {
  file: string;
  notes: string;
  broken: boolean;
}

/** Document rows of MANIFEST.tsv (ground-truth rows skipped). */
function manifest(): Entry[] {
  const [header, ...rows] = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8').split('\n').filter(Boolean);
  const cols = header.split('\t');
  const at = (r: string[], name: string) => r[cols.indexOf(name)] ?? '';
  return rows
    .map((line) => line.split('\t'))
    .filter((r) => !at(r, 'ext').startsWith('groundtruth'))
    .map((r) => ({ file: at(r, 'file'), notes: at(r, 'notes'), broken: at(r, 'file').startsWith('broken/') }));
}

/** A file of the valid folders that is itself damaged (strict JSON rejects it). */
const DAMAGED_VALID = new Set(['json/docling_dots_simple.json']);
/** Broken files that lenient readers recover, as the corpus notes say: indexing them is fine too. */
const recoverable = (e: Entry) => e.broken && /recover|lenient/i.test(e.notes);

const entries = manifest();
const results = new Map<string, IndexedFile>();

describe('corpus run through the pipeline (../shared/corpus)', () => {
  let stack: TestStack;
  let indexer: Indexer;

  beforeAll(async () => {
    stack = await TestStack.start({
      label: 'corpus',
      apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'],
      // The corpus holds a denial-of-service spreadsheet; two minutes is plenty for every real document.
      appEnv: { 'indexing-service': { PARSE_TIMEOUT_MS: '120000' } },
    });
    indexer = await Indexer.forNamespace(stack, 'corpus', 'curator@corpus.test');
    expect(await indexer.rule('node_embedding', null)).toBe(204);

    const ids = new Map<string, string>();
    const queue = [...entries];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) {
          const file = await indexer.index(e.file, { corpus: e.file });
          ids.set(e.file, file.id.id);
        }
      }),
    );
    for (const [path, id] of ids) results.set(path, await indexer.settled(id, 15 * 60_000));

    const lines = ['', 'Corpus run through the pipeline', '| outcome | files |', '|---|---|'];
    const outcome = new Map<string, number>();
    for (const f of results.values()) outcome.set(f.lastIndexationInfos.status, (outcome.get(f.lastIndexationInfos.status) ?? 0) + 1);
    for (const [status, n] of outcome) lines.push(`| ${status} | ${n} |`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }, 30 * 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const valid = entries.filter((e) => !e.broken && !DAMAGED_VALID.has(e.file));
  const broken = entries.filter((e) => e.broken || DAMAGED_VALID.has(e.file));

  it('covers the whole corpus', () => {
    expect(entries.length).toBeGreaterThan(200);
    expect(results.size).toBe(entries.length);
  });

  it.each(valid.map((e) => [e.file, e] as const))('indexes %s', (file) => {
    const f = results.get(file)!;
    expect({ file, ...f.lastIndexationInfos }).toEqual({ file, status: 'SUCCESS', errorMessage: null, errorTraceback: null });
    expect(f.indexed).toBe(true);
    expect(f.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(f.additionalInfos.parsing?.nodes).toBeGreaterThan(0);
  });

  it.each(broken.map((e) => [e.file, e] as const))('ends %s FAILED with a message', (file, e) => {
    const f = results.get(file)!;
    if (recoverable(e) && f.lastIndexationInfos.status === 'SUCCESS') return;
    expect({ file, status: f.lastIndexationInfos.status }).toEqual({ file, status: 'FAILED' });
    expect(f.lastIndexationInfos.errorMessage?.length).toBeGreaterThan(10);
    expect(f.indexed).toBe(false);
    if (/ENCRYPTED|password/i.test(e.notes) && !/opens with empty user password/i.test(e.notes)) {
      expect(f.lastIndexationInfos.errorMessage).toMatch(/password/i);
    }
  });

  it('keeps serving: health is ready and a new file indexes after the run', async () => {
    for (const app of stack.apps.values()) expect((await fetch(`http://127.0.0.1:${app.port}/health/ready`)).status).toBe(200);
    const file = await indexer.index('after/run.txt', { bytes: 'Still serving after the corpus.\n' });
    const done = await eventually(
      'the file after the run',
      () => indexer.get(file.id.id),
      (f) => TERMINAL.includes(f.lastIndexationInfos.status),
    );
    expect(done.lastIndexationInfos.status).toBe('SUCCESS');
  });
});

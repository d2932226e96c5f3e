import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared parsing corpus beside the repository (../shared/corpus from the repo root). */
export const CORPUS_DIR = resolve(__dirname, '../../../../../shared/corpus');

export interface CorpusEntry {
  file: string;
  ext: string;
  pages?: number;
  groundTruth: string[];
  notes: string;
  broken: boolean;
}

/** Document rows of MANIFEST.tsv (ground-truth rows skipped). */
export function corpusEntries(): CorpusEntry[] {
  const [header, ...rows] = readFileSync(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').split('\n').filter(Boolean);
  const cols = header.split('\t');
  const at = (r: string[], name: string) => r[cols.indexOf(name)] ?? '';
  return rows
    .map((line) => line.split('\t'))
    .filter((r) => !at(r, 'ext').startsWith('groundtruth'))
    .map((r) => ({
      file: at(r, 'file'),
      ext: at(r, 'ext'),
      pages: Number(at(r, 'pages_if_known')) || undefined,
      groundTruth: at(r, 'ground_truth_file').split(';').filter(Boolean),
      notes: at(r, 'notes'),
      broken: at(r, 'file').startsWith('broken/'),
    }));
}

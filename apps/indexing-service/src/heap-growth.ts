import { setFlagsFromString } from 'node:v8';
import type { IndexingEnv } from './indexing.env';

/**
 * How much V8 lets the old space grow past what survived the last full collection before it
 * collects again, for the main thread and every thread started after (parser, embedder and OCR
 * threads; the flag is the process's). V8 chooses up to 4x on its own when collections are quick,
 * so a burst of batches (node records, passages, vectors) took indexing-service's heap hundreds of
 * MiB past what it kept. Set at start-up, before the threads exist; HEAP_GROWING_PERCENT.
 */
export function applyHeapGrowth(env: Pick<IndexingEnv, 'HEAP_GROWING_PERCENT'>): void {
  setFlagsFromString(`--heap-growing-percent=${env.HEAP_GROWING_PERCENT}`);
}

/**
 * Turns texts into vectors. One instance per process: implementations load their model (or open
 * their client) lazily on the first call and keep it.
 */
export interface Embedder {
  /** Identifies the model and its version; vectors of different models are never compared. */
  readonly model: string;
  /** Length of every vector this embedder returns. */
  readonly dimensions: number;
  /** One vector per text, in the order given. Rejects with EmbeddingError when the model cannot answer. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Releases the model or its worker; a later embed() starts it again. */
  close(): Promise<void>;
}

/** Why embedding failed, in words an operator can act on. The cause is kept for the log. */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

/** Splits a list into consecutive slices of at most `size` items. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

import type { ParseErrorCode } from '../errors';
import type { ParseLimits } from '../limits';
import type { ParsedDocument } from '../model';

export interface WorkerRequest {
  id: number;
  source: { bytes: ArrayBuffer } | { path: string };
  fileName: string;
  mediaType?: string;
  limits: ParseLimits;
}

export type WorkerReply =
  | { id: number; ok: true; doc: ParsedDocument; retire: boolean }
  | { id: number; ok: false; error: { code: ParseErrorCode; message: string }; retire: boolean };

/** How long a parsing thread keeps its OCR engine after the last page it read, unless told otherwise. */
export const DEFAULT_OCR_IDLE_MS = 15_000;

/** What a parsing thread is started with. */
export interface WorkerData {
  /** How long the thread keeps its OCR engine after the last document that used it (0: ended with it). */
  ocrIdleMs: number;
}

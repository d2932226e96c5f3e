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

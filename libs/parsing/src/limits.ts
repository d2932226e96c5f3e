/** Resource guards applied to every document; a document over a limit fails with a ParseError. */
export interface ParseLimits {
  /** Largest input accepted. */
  maxBytes: number;
  /** Most pages (PDF pages, TIFF frames). */
  maxPages: number;
  /** Most pixels in one image or rendered page (width x height). */
  maxPixels: number;
  /** Most spreadsheet/CSV cells across the document. */
  maxCells: number;
  /** Most nodes in the tree. */
  maxNodes: number;
  /** Deepest nesting for JSON/XML/HTML structures. */
  maxDepth: number;
  /** Wall-clock budget for one document. */
  timeoutMs: number;
  /** V8 heap of the worker that parses a document (native buffers of image codecs come on top). */
  maxMemoryMb: number;
  /** OCR images and PDF pages without a text layer. */
  ocr: boolean;
  /** Most PDF pages sent to OCR in one document. */
  maxOcrPages: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxBytes: 200 * 1024 * 1024,
  maxPages: 2_000,
  maxPixels: 60_000_000,
  maxCells: 2_000_000,
  maxNodes: 2_000_000,
  maxDepth: 200,
  timeoutMs: 300_000,
  maxMemoryMb: 2_048,
  ocr: true,
  maxOcrPages: 100,
};

export function resolveLimits(overrides?: Partial<ParseLimits>): ParseLimits {
  return { ...DEFAULT_LIMITS, ...(overrides ?? {}) };
}

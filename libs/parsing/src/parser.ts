import type { DocumentMetadata, DocumentNode, FormatFamily } from './model';
import type { ParseLimits } from './limits';
import type { DetectedFormat } from './detect';

/** What to parse: the bytes themselves or a path to read them from. */
export interface ParseInput {
  source: Buffer | { path: string };
  fileName: string;
  /** Declared media type, used only as a hint when content and extension say nothing. */
  mediaType?: string;
}

/** What a parser returns; the registry adds the detected format. */
export interface ParserResult {
  root: DocumentNode;
  metadata: DocumentMetadata;
  warnings: string[];
}

export interface ParseContext {
  bytes: Buffer;
  fileName: string;
  format: DetectedFormat;
  limits: ParseLimits;
  /** Throws a ParseError when the wall-clock budget is spent; parsers call it between units of work. */
  checkpoint(): void;
}

/** One parser per format family. */
export interface Parser {
  readonly family: FormatFamily;
  parse(ctx: ParseContext): Promise<ParserResult>;
}

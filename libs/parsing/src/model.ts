/**
 * What every parser produces: the document node model of libs/contracts (written once there, used
 * by the node store and the API too) plus the parser's own facts about the document. Types only, so
 * the worker threads load nothing for it.
 */
import type { DocumentNode } from '@docintel/contracts';

export type {
  BBox,
  BBoxPosition,
  CellPosition,
  DocumentNode,
  LinePosition,
  NodeAttributes,
  NodeType,
  OcrWord,
  ParagraphPosition,
  Position,
} from '@docintel/contracts';

/** Facts about the whole document, where the format records them. */
export interface DocumentMetadata {
  title?: string;
  authors?: string[];
  /** ISO 8601. */
  creationDate?: string;
  modificationDate?: string;
  pageCount?: number;
  sheetCount?: number;
  /** BCP 47 tag as declared by the document (not guessed from the text). */
  language?: string;
  producer?: string;
}

/** The 18 supported extensions, canonical lower case without the dot. */
export const SUPPORTED_EXTENSIONS = [
  'pdf',
  'txt',
  'html',
  'htm',
  'doc',
  'docx',
  'csv',
  'xlsx',
  'xls',
  'ods',
  'jpg',
  'jpeg',
  'png',
  'webp',
  'bmp',
  'tiff',
  'json',
  'xml',
] as const;
export type SupportedExtension = (typeof SUPPORTED_EXTENSIONS)[number];

/** Parser families: one parser per family. */
export type FormatFamily = 'pdf' | 'docx' | 'doc' | 'spreadsheet' | 'csv' | 'html' | 'xml' | 'json' | 'text' | 'image';

export interface ParsedDocument {
  /** The type detected from the content (extension used only where content says nothing). */
  format: { family: FormatFamily; extension: SupportedExtension; mediaType: string };
  metadata: DocumentMetadata;
  root: DocumentNode;
  /** Things a user may want to know that did not stop parsing (e.g. "page 3 was OCR'd"). */
  warnings: string[];
}

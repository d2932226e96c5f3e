/**
 * The document node model produced by every parser. Plain data only (no library imports) so that
 * it can move to libs/contracts unchanged and travel through structured clone and JSON.
 */

export type NodeType =
  | 'document'
  | 'section'
  | 'heading'
  | 'paragraph'
  | 'list'
  | 'list_item'
  | 'table'
  | 'row'
  | 'cell'
  | 'formula'
  | 'figure'
  | 'page'
  | 'code';

/**
 * A rectangle in PDF points (1/72 inch) with the origin at the top-left corner of the page as it is
 * displayed (page rotation applied), y growing downwards. For images (and OCR'd pages of images)
 * the unit is the pixel of the image, same origin and direction.
 */
export interface BBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** PDF and images. `page_number` is 1-based. */
export interface BBoxPosition {
  type: 'BBOX';
  page_number: number;
  bbox: BBox;
}

/** Spreadsheets. `row` and `col` are 0-based (A1 is row 0, col 0). */
export interface CellPosition {
  type: 'CELL';
  sheet_name: string;
  row: number;
  col: number;
}

/**
 * Text, CSV, JSON and XML. `line_number` is 1-based; columns are 0-based UTF-16 code-unit offsets
 * in that line, `column_index_start` inclusive and `column_index_stop` exclusive.
 */
export interface LinePosition {
  type: 'LINE';
  line_number: number;
  column_index_start: number;
  column_index_stop: number;
}

export type Position = BBoxPosition | CellPosition | LinePosition;

/** A word recognised by OCR, kept on the paragraph it belongs to. */
export interface OcrWord {
  text: string;
  bbox: BBox;
  /** 0..100 as reported by the OCR engine. */
  confidence: number;
}

/** Optional facts about a node; only the ones that apply are set. */
export interface NodeAttributes {
  /** list: numbered (true) or bulleted (false). */
  ordered?: boolean;
  /** cell: spans and whether it is a header cell. */
  rowSpan?: number;
  colSpan?: number;
  header?: boolean;
  /** section of a spreadsheet, element name for XML, property name for JSON. */
  name?: string;
  /** formula: 'latex' when `text` is LaTeX-like, 'text' when it is the plain text of the math run. */
  notation?: 'latex' | 'text';
  /** code: language when the source says so. */
  language?: string;
  /** page and figure: set when the text comes from OCR. */
  ocr?: boolean;
  /** paragraph from OCR: mean word confidence (0..100) and the words with their boxes. */
  confidence?: number;
  words?: OcrWord[];
  /** page: size in points (PDF) or pixels (image). */
  width?: number;
  height?: number;
}

/**
 * One node of the tree. `text` is the node's own text: leaves (heading, paragraph, list_item, cell,
 * formula, code, figure caption) carry their text; containers (document, section, page, list, table,
 * row) carry '' and the text lives in their children. `level` is set on headings (1 = top).
 */
export interface DocumentNode {
  type: NodeType;
  text: string;
  level?: number;
  children: DocumentNode[];
  positions: Position[];
  attributes?: NodeAttributes;
}

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
  'pdf', 'txt', 'html', 'htm', 'doc', 'docx', 'csv', 'xlsx', 'xls', 'ods',
  'jpg', 'jpeg', 'png', 'webp', 'bmp', 'tiff', 'json', 'xml',
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

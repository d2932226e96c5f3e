import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { Transform } from 'class-transformer';
import { FileRefRequest } from './files';

/**
 * The document node model: the tree every parser produces and the node store keeps per file.
 * Plain data, so that it travels through JSON, structured clone and NATS unchanged.
 */

export const NODE_TYPES = [
  'document',
  'section',
  'heading',
  'paragraph',
  'list',
  'list_item',
  'table',
  'row',
  'cell',
  'formula',
  'figure',
  'page',
  'code',
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/**
 * A rectangle in PDF points (1/72 inch) with the origin at the top-left corner of the page as it is
 * displayed, y growing downwards. For images (and OCR'd pages) the unit is the image pixel.
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
 * Text, CSV, JSON, XML and HTML (lines of the source file). `line_number` is 1-based; columns are 0-based offsets in that line,
 * `column_index_start` inclusive and `column_index_stop` exclusive.
 */
export interface LinePosition {
  type: 'LINE';
  line_number: number;
  column_index_start: number;
  column_index_stop: number;
}

/**
 * DOCX and DOC (extension of the interface's position types): a range of one paragraph of the
 * document body.
 */
export interface ParagraphPosition {
  type: 'PARAGRAPH';
  /**
   * 0-based: DOCX, the n-th <w:p> element of word/document.xml in document order (start tags;
   * paragraphs in tables and text boxes count); DOC, the n-th paragraph of the body text (split at
   * paragraph marks).
   */
  paragraph_index: number;
  /**
   * 0-based UTF-16 offsets into the paragraph's text, start inclusive, stop exclusive. DOCX paragraph
   * text = its own runs' <w:t> texts concatenated, <w:tab/> as "\t", <w:br/> and <w:cr/> as "\n",
   * excluding the text of paragraphs nested inside it (text boxes).
   */
  column_index_start: number;
  column_index_stop: number;
}

export type Position = BBoxPosition | CellPosition | LinePosition | ParagraphPosition;

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
  /** section of a spreadsheet (sheet name), element name for XML, property name for JSON. */
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
  [key: string]: unknown;
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

/** A node as the node store keeps and returns it: with its id, children in reading order. */
export interface StoredNode extends DocumentNode {
  id: string;
  children: StoredNode[];
}

/**
 * A node as a pipeline writes it into the store, flat: the parent is named by id so that a tree can
 * be written in several batches. `ordinal` orders siblings (reading order).
 */
export interface NodeRecord {
  id: string;
  parentId: string | null;
  ordinal: number;
  type: NodeType;
  text: string;
  level?: number | null;
  positions?: Position[];
  attributes?: NodeAttributes;
}

export const DOCUMENT_FORMATS = ['json', 'markdown', 'text'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

export class DocumentQueryDto {
  @ApiPropertyOptional({
    enum: DOCUMENT_FORMATS,
    default: 'json',
    description: 'json: the node tree; markdown or text: the document in reading order (tables as Markdown tables in markdown)',
  })
  @IsOptional()
  @Transform(lower)
  @IsIn(DOCUMENT_FORMATS, { message: `must be one of ${DOCUMENT_FORMATS.join(', ')}` })
  format: DocumentFormat = 'json';
}

/** indexing.files.document */
export class DocumentRequest extends FileRefRequest {
  @IsOptional()
  @IsIn(DOCUMENT_FORMATS, { message: `must be one of ${DOCUMENT_FORMATS.join(', ')}` })
  format: DocumentFormat = 'json';
}

/** The reply of indexing.files.document: the tree, or the rendered text. */
export type DocumentReply = { format: 'json'; root: StoredNode } | { format: 'markdown' | 'text'; content: string };

// OpenAPI description of the tree. Nothing validates these: they are only ever produced by the service.

export class BBoxDto implements BBox {
  @ApiProperty() x0: number;
  @ApiProperty() y0: number;
  @ApiProperty() x1: number;
  @ApiProperty() y1: number;
}

export class BBoxPositionDto implements BBoxPosition {
  @ApiProperty({ enum: ['BBOX'] }) type: 'BBOX';
  @ApiProperty({ type: 'integer', description: '1-based' }) page_number: number;
  @ApiProperty({ type: BBoxDto, description: 'PDF points (images: pixels), origin top-left' }) bbox: BBoxDto;
}

export class CellPositionDto implements CellPosition {
  @ApiProperty({ enum: ['CELL'] }) type: 'CELL';
  @ApiProperty() sheet_name: string;
  @ApiProperty({ type: 'integer', description: '0-based' }) row: number;
  @ApiProperty({ type: 'integer', description: '0-based' }) col: number;
}

export class LinePositionDto implements LinePosition {
  @ApiProperty({ enum: ['LINE'] }) type: 'LINE';
  @ApiProperty({ type: 'integer', description: '1-based' }) line_number: number;
  @ApiProperty({ type: 'integer', description: '0-based, inclusive' }) column_index_start: number;
  @ApiProperty({ type: 'integer', description: '0-based, exclusive' }) column_index_stop: number;
}

export class ParagraphPositionDto implements ParagraphPosition {
  @ApiProperty({ enum: ['PARAGRAPH'] }) type: 'PARAGRAPH';
  @ApiProperty({
    type: 'integer',
    description: '0-based. DOCX: the n-th <w:p> element of word/document.xml in document order; DOC: the n-th paragraph of the body text',
  })
  paragraph_index: number;
  @ApiProperty({ type: 'integer', description: "0-based UTF-16 offset into the paragraph's text, inclusive" }) column_index_start: number;
  @ApiProperty({ type: 'integer', description: "0-based UTF-16 offset into the paragraph's text, exclusive" }) column_index_stop: number;
}

@ApiExtraModels(BBoxPositionDto, CellPositionDto, LinePositionDto, ParagraphPositionDto)
export class DocumentNodeDto implements StoredNode {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ enum: NODE_TYPES })
  type: NodeType;

  @ApiProperty({ description: "The node's own text; '' on containers, whose text is in their children" })
  text: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Heading level, 1 = top' })
  level?: number;

  @ApiProperty({
    type: 'array',
    items: { oneOf: [BBoxPositionDto, CellPositionDto, LinePositionDto, ParagraphPositionDto].map((m) => ({ $ref: getSchemaPath(m) })) },
  })
  positions: Position[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'ordered, header, rowSpan, colSpan, language, ...' })
  attributes?: NodeAttributes;

  @ApiProperty({ type: () => [DocumentNodeDto], description: 'In reading order' })
  children: DocumentNodeDto[];
}

/**
 * The LINE positions of characters `from`..`to` of a node's text. A text paragraph is its lines
 * joined by one character, each line's columns being its text: when the positions add up to the
 * text's length that way, offsets map to lines and columns, and only the lines the range touches
 * are kept, cut to it. Any other node keeps its positions as they are.
 */
export function linePositionsOf(positions: Position[], textLength: number, from: number, to: number): Position[] {
  if (!positions.length || positions.some((p) => p.type !== 'LINE')) return positions;
  const lines = positions as LinePosition[];
  const lengths = lines.map((l) => l.column_index_stop - l.column_index_start);
  if (lengths.reduce((a, b) => a + b, 0) + lines.length - 1 !== textLength) return positions;
  const cited: LinePosition[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    const start = Math.max(from, offset);
    const stop = Math.min(to, offset + lengths[i]);
    const emptyRangeHere = from === to && from >= offset && from <= offset + lengths[i] && !cited.length;
    if (stop > start || emptyRangeHere) {
      cited.push({
        ...line,
        column_index_start: line.column_index_start + start - offset,
        column_index_stop: line.column_index_start + Math.max(start, stop) - offset,
      });
    }
    offset += lengths[i] + 1;
  });
  return cited.length ? cited : positions;
}

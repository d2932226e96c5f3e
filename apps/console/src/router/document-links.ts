/**
 * Where in a document to open it: the target of a document view's URL
 * (`/files/{id}/document?node=…&page=…&box=…`), written from a job's citation (an Annotation or
 * its DOCUMENT_STATEMENT data) and read back by the route. Pure: no React, no DOM.
 */

/** A box in a page's coordinates: PDF points (images: pixels), origin top-left. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A place in a document; every field is optional and they may be combined. */
export interface DocumentTarget {
  /** The node cited, as GET /files/{id}/document shows it. */
  nodeId?: string;
  /** 1-based page (PDF) or frame (image). */
  page?: number;
  /** A box on `page`. */
  box?: Box;
  /** A spreadsheet cell: sheet name, 0-based row and column. */
  sheet?: string;
  row?: number;
  col?: number;
  /** 1-based lines, `lineEnd` inclusive (text, CSV, JSON, XML). */
  line?: number;
  lineEnd?: number;
  /** 0-based paragraphs of a Word document (DOCX, DOC), `paragraphEnd` inclusive. */
  paragraph?: number;
  paragraphEnd?: number;
  /** Columns on `line` (or in `paragraph`), 0-based, `columnStop` exclusive. */
  columnStart?: number;
  columnStop?: number;
  /**
   * Text the citation quotes (the answer as written in the document): the view marks the sentence
   * of the node that holds it. Not a place by itself: it only narrows the node the rest names.
   */
  quote?: string;
}

/** Longest quote a link carries: enough to find a value or a sentence, short enough for a URL. */
export const MAX_QUOTE = 300;

/** What a job cites: a DOCUMENT_STATEMENT (`annotation.data`), with its node and positions. */
export interface CitationLike {
  nodeId?: string | null;
  positions?: ReadonlyArray<Record<string, unknown>> | null;
}

/** An annotation of a job, whose `data` is the citation. */
export interface AnnotationLike {
  data: CitationLike;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const int = (v: unknown): number | null => (Number.isInteger(v) ? (v as number) : null);

/** The first and last of some numbered spans (lines, paragraphs), and the columns when there is only one. */
function spanRange(
  spans: ReadonlyArray<Record<string, unknown>>,
  key: string,
): { first: number; last: number; columns?: [number, number] } {
  const numbers = spans.map((p) => p[key] as number);
  const first = Math.min(...numbers);
  const last = Math.max(...numbers);
  if (first !== last) return { first, last };
  const start = int(spans[0].column_index_start);
  const stop = int(spans[0].column_index_stop);
  return start !== null && stop !== null && stop > start ? { first, last, columns: [start, stop] } : { first, last };
}

/**
 * The target a citation names: its node, and its positions (BBOX, CELL, LINE, or PARAGRAPH for
 * Word documents) as page and box, cell, lines, or paragraphs.
 */
export function citationTarget(citation: CitationLike | AnnotationLike): DocumentTarget {
  const c: CitationLike = 'data' in citation ? citation.data : citation;
  const target: DocumentTarget = {};
  if (c.nodeId) target.nodeId = c.nodeId;
  const positions = c.positions ?? [];

  const boxes = positions.filter((p) => p.type === 'BBOX' && int(p.page_number) !== null);
  if (boxes.length > 0) {
    const page = boxes[0].page_number as number;
    target.page = page;
    const onPage = boxes
      .filter((p) => p.page_number === page)
      .map((p) => p.bbox as Partial<Box> | undefined)
      .filter((b): b is Box => !!b && [b.x0, b.y0, b.x1, b.y1].every((v) => num(v) !== null));
    if (onPage.length > 0) {
      target.box = {
        x0: Math.min(...onPage.map((b) => b.x0)),
        y0: Math.min(...onPage.map((b) => b.y0)),
        x1: Math.max(...onPage.map((b) => b.x1)),
        y1: Math.max(...onPage.map((b) => b.y1)),
      };
    }
  }

  const cell = positions.find((p) => p.type === 'CELL' && int(p.row) !== null && int(p.col) !== null);
  if (cell) {
    if (typeof cell.sheet_name === 'string' && cell.sheet_name) target.sheet = cell.sheet_name;
    target.row = cell.row as number;
    target.col = cell.col as number;
  }

  const lines = positions.filter((p) => p.type === 'LINE' && int(p.line_number) !== null);
  if (lines.length > 0) {
    const { first, last, columns } = spanRange(lines, 'line_number');
    target.line = first;
    if (last !== first) target.lineEnd = last;
    if (columns) [target.columnStart, target.columnStop] = columns;
  }

  const paragraphs = positions.filter((p) => p.type === 'PARAGRAPH' && int(p.paragraph_index) !== null);
  if (paragraphs.length > 0) {
    const { first, last, columns } = spanRange(paragraphs, 'paragraph_index');
    target.paragraph = first;
    if (last !== first) target.paragraphEnd = last;
    // Columns belong to one line or one paragraph: a citation has one or the other.
    if (columns && target.line === undefined) [target.columnStart, target.columnStop] = columns;
  }
  return target;
}

const round = (v: number) => String(Math.round(v * 100) / 100);

/** The query string of a target (without '?'), its parameters always in the same order. */
export function targetQuery(target: DocumentTarget): string {
  const q = new URLSearchParams();
  if (target.nodeId) q.set('node', target.nodeId);
  if (target.page !== undefined) q.set('page', String(target.page));
  if (target.box) q.set('box', [target.box.x0, target.box.y0, target.box.x1, target.box.y1].map(round).join(','));
  if (target.sheet !== undefined) q.set('sheet', target.sheet);
  if (target.row !== undefined) q.set('row', String(target.row));
  if (target.col !== undefined) q.set('col', String(target.col));
  if (target.line !== undefined) q.set('line', String(target.line));
  if (target.lineEnd !== undefined) q.set('lineEnd', String(target.lineEnd));
  if (target.paragraph !== undefined) q.set('paragraph', String(target.paragraph));
  if (target.paragraphEnd !== undefined) q.set('paragraphEnd', String(target.paragraphEnd));
  if (target.columnStart !== undefined && target.columnStop !== undefined) q.set('columns', `${target.columnStart}-${target.columnStop}`);
  const quote = target.quote?.trim();
  if (quote) q.set('quote', quote.slice(0, MAX_QUOTE));
  return q.toString();
}

// A citation always has `positions` (an annotation, `data`); a target never has either.
const isTarget = (t: DocumentTarget | CitationLike | AnnotationLike): t is DocumentTarget => !('data' in t) && !('positions' in t);

/**
 * The URL of a file's document view, opened at a place: a DocumentTarget, or a citation (an
 * Annotation, or its `data`, a DOCUMENT_STATEMENT) whose node and positions say where.
 * `documentLink(a.data.documentId, a)` links a job's annotation to the place it cites.
 */
export function documentLink(fileId: string, target?: DocumentTarget | CitationLike | AnnotationLike | null): string {
  const path = `/files/${encodeURIComponent(fileId)}/document`;
  if (!target) return path;
  const qs = targetQuery(isTarget(target) ? target : citationTarget(target));
  return qs ? `${path}?${qs}` : path;
}

const nonNegative = (v: string | null): number | undefined => {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};
const positive = (v: string | null): number | undefined => {
  const n = nonNegative(v);
  return n !== undefined && n > 0 ? n : undefined;
};

/** The target of a document view's query string; what is missing or malformed is left out. */
export function readDocumentTarget(query: URLSearchParams): DocumentTarget {
  const target: DocumentTarget = {};
  const node = query.get('node');
  if (node) target.nodeId = node;
  const page = positive(query.get('page'));
  if (page !== undefined) target.page = page;
  const box = (query.get('box') ?? '').split(',').map((v) => (v.trim() === '' ? NaN : Number(v)));
  if (box.length === 4 && box.every(Number.isFinite) && box[2] >= box[0] && box[3] >= box[1]) {
    target.box = { x0: box[0], y0: box[1], x1: box[2], y1: box[3] };
  }
  const sheet = query.get('sheet');
  if (sheet) target.sheet = sheet;
  const row = nonNegative(query.get('row'));
  const col = nonNegative(query.get('col'));
  if (row !== undefined && col !== undefined) {
    target.row = row;
    target.col = col;
  }
  const line = nonNegative(query.get('line'));
  if (line !== undefined) {
    target.line = line;
    const end = nonNegative(query.get('lineEnd'));
    if (end !== undefined && end > line) target.lineEnd = end;
  }
  const paragraph = nonNegative(query.get('paragraph'));
  if (paragraph !== undefined) {
    target.paragraph = paragraph;
    const end = nonNegative(query.get('paragraphEnd'));
    if (end !== undefined && end > paragraph) target.paragraphEnd = end;
  }
  const columns = /^(\d+)-(\d+)$/.exec(query.get('columns') ?? '');
  if ((line !== undefined || paragraph !== undefined) && columns && Number(columns[2]) > Number(columns[1])) {
    target.columnStart = Number(columns[1]);
    target.columnStop = Number(columns[2]);
  }
  const quote = query.get('quote')?.trim();
  if (quote) target.quote = quote.slice(0, MAX_QUOTE);
  return target;
}

/** Whether a target names any place at all (a quote alone names none). */
export const hasTarget = (t: DocumentTarget): boolean => Object.keys(t).some((k) => k !== 'quote');

/**
 * Reading a file's node tree (GET /files/{id}/document) for the document view: where nodes are
 * (pages, boxes, cells, lines), which node a target names, tables as grids and formulas as LaTeX.
 * Pure: no React, no DOM.
 */
import type { DocumentNode, Schemas } from '@docintel/api-client';
import { iou, union } from './geometry';
import type { Box, DocumentTarget } from '../../router/document-links';

export type { DocumentNode };
export type NodeType = DocumentNode['type'];
type BBoxPosition = Schemas['BBoxPositionDto'];
type CellPosition = Schemas['CellPositionDto'];
type LinePosition = Schemas['LinePositionDto'];

export const bboxesOf = (n: DocumentNode): BBoxPosition[] => n.positions.filter((p): p is BBoxPosition => p.type === 'BBOX');
export const cellsOf = (n: DocumentNode): CellPosition[] => n.positions.filter((p): p is CellPosition => p.type === 'CELL');
export const linesOf = (n: DocumentNode): LinePosition[] => n.positions.filter((p): p is LinePosition => p.type === 'LINE');

/** DOCX and DOC (extension): a range of one paragraph of the document body, `paragraph_index` 0-based. */
export interface ParagraphPosition {
  type: 'PARAGRAPH';
  paragraph_index: number;
  column_index_start: number;
  column_index_stop: number;
}
// Read structurally: the position is an extension the node tree may carry before the client's types name it.
export const paragraphsOf = (n: DocumentNode): ParagraphPosition[] =>
  (n.positions as ReadonlyArray<{ type: string }>).filter(
    (p): p is ParagraphPosition => p.type === 'PARAGRAPH' && Number.isInteger((p as ParagraphPosition).paragraph_index),
  );

/** The tree read once: every node by id with its parent, in reading order. */
export interface TreeIndex {
  root: DocumentNode;
  byId: Map<string, DocumentNode>;
  parentOf: Map<string, DocumentNode>;
  order: DocumentNode[];
}

export function indexTree(root: DocumentNode): TreeIndex {
  const byId = new Map<string, DocumentNode>();
  const parentOf = new Map<string, DocumentNode>();
  const order: DocumentNode[] = [];
  // Iterative: a deep tree (nested lists, nested tables) never overflows the stack.
  const stack: DocumentNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as DocumentNode;
    byId.set(n.id, n);
    order.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) {
      parentOf.set(n.children[i].id, n);
      stack.push(n.children[i]);
    }
  }
  return { root, byId, parentOf, order };
}

/** The first page a node is on: its own boxes, else its first descendant's. */
export function pageOf(n: DocumentNode): number | null {
  const own = bboxesOf(n)[0];
  if (own) return own.page_number;
  for (const c of n.children) {
    const p = pageOf(c);
    if (p !== null) return p;
  }
  return null;
}

/** How many pages the tree knows of (0 for a document without boxes). */
export function pageCount(index: TreeIndex): number {
  let max = 0;
  for (const n of index.order) for (const p of bboxesOf(n)) max = Math.max(max, p.page_number);
  return max;
}

/** A page's size as the parser measured it (the page node's box, or its width/height attributes). */
export function pageSize(index: TreeIndex, page: number): { width: number; height: number } | null {
  for (const n of index.order) {
    if (n.type !== 'page') continue;
    const b = bboxesOf(n).find((p) => p.page_number === page);
    if (b) return { width: b.bbox.x1 - b.bbox.x0, height: b.bbox.y1 - b.bbox.y0 };
  }
  return null;
}

/** Containers whose box only repeats their children's (or the page's): not drawn over a page. */
const NOT_DRAWN: ReadonlySet<NodeType> = new Set<NodeType>(['document', 'page', 'section', 'list', 'row']);

/** A box drawn over a page: a node and one of its boxes there. */
export interface PageBox {
  node: DocumentNode;
  box: Box;
  /** Position of the box among the page's boxes, in reading order. */
  index: number;
}

/** The boxes drawn over a page, in reading order: tables, cells, and every leaf with a box. */
export function boxesOnPage(index: TreeIndex, page: number): PageBox[] {
  const out: PageBox[] = [];
  for (const n of index.order) {
    if (NOT_DRAWN.has(n.type)) continue;
    for (const p of bboxesOf(n)) {
      if (p.page_number === page && p.bbox.x1 > p.bbox.x0 && p.bbox.y1 > p.bbox.y0) out.push({ node: n, box: p.bbox, index: out.length });
    }
  }
  return out;
}

/** The nodes of some types on a page (by their first page), in reading order. */
export function nodesOnPage(index: TreeIndex, page: number, types: ReadonlyArray<NodeType>): DocumentNode[] {
  return index.order.filter((n) => types.includes(n.type) && !insideOfType(index, n, types) && pageOf(n) === page);
}

/** Whether a node lies inside another node of one of these types (a table in a table cell). */
function insideOfType(index: TreeIndex, n: DocumentNode, types: ReadonlyArray<NodeType>): boolean {
  for (let p = index.parentOf.get(n.id); p; p = index.parentOf.get(p.id)) if (types.includes(p.type)) return true;
  return false;
}

/** The pages holding nodes of some types, ascending. */
export function pagesWith(index: TreeIndex, types: ReadonlyArray<NodeType>): number[] {
  const pages = new Set<number>();
  for (const n of index.order) {
    if (!types.includes(n.type)) continue;
    const p = pageOf(n);
    if (p !== null) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}

/** Where a target is in the tree: the node it names (if any), its page, and the box to show. */
export interface ResolvedTarget {
  node: DocumentNode | null;
  page: number | null;
  /** A cited box with no node of its own (a citation without nodeId whose box no node matches). */
  box: Box | null;
}

/**
 * The node a target names: its node id when the tree has it; else the cell at a CELL position;
 * else the smallest node on the cited lines, or paragraphs of a Word document (preferring one
 * holding the cited columns); else the smallest node on the page whose box covers most of the
 * cited box. A cited box no node matches is returned alone, to be drawn as it is.
 */
export function resolveTarget(index: TreeIndex, target: DocumentTarget): ResolvedTarget {
  const withPage = (node: DocumentNode | null, box: Box | null = null): ResolvedTarget => ({
    node,
    page: (node ? pageOf(node) : null) ?? target.page ?? null,
    box,
  });
  if (target.nodeId) {
    const node = index.byId.get(target.nodeId);
    if (node) return withPage(node);
  }
  if (target.row !== undefined && target.col !== undefined) {
    const at = (n: DocumentNode) =>
      cellsOf(n).some((p) => p.row === target.row && p.col === target.col && (!target.sheet || p.sheet_name === target.sheet));
    // The cell rather than its row when both carry the position.
    const node = index.order.find((n) => n.type === 'cell' && at(n)) ?? index.order.find(at);
    if (node) return withPage(node);
  }
  if (target.line !== undefined) {
    const spans = (n: DocumentNode) =>
      linesOf(n).map((p) => ({ at: p.line_number, start: p.column_index_start, stop: p.column_index_stop }));
    const node = nodeAtSpans(index, spans, target.line, target.lineEnd, target);
    if (node) return withPage(node);
  }
  if (target.paragraph !== undefined) {
    const spans = (n: DocumentNode) =>
      paragraphsOf(n).map((p) => ({ at: p.paragraph_index, start: p.column_index_start, stop: p.column_index_stop }));
    const node = nodeAtSpans(index, spans, target.paragraph, target.paragraphEnd, target);
    if (node) return withPage(node);
  }
  if (target.page !== undefined && target.box) {
    const cited = target.box;
    let best: { node: DocumentNode; score: number } | null = null;
    for (const b of boxesOnPage(index, target.page)) {
      const score = iou(cited, b.box);
      if (score >= 0.5 && (!best || score > best.score)) best = { node: b.node, score };
    }
    return best ? { node: best.node, page: target.page, box: null } : { node: null, page: target.page, box: cited };
  }
  return withPage(null);
}

/** A numbered span of a node: a line or a paragraph (`at`), with its columns. */
interface Span {
  at: number;
  start: number;
  stop: number;
}

/**
 * The node that best covers spans `first`..`last` (lines or paragraphs): holding the cited columns
 * of `first` first, then covering the fewest spans, then the narrowest, then the deepest (a table
 * cell rather than a row that has the same one paragraph).
 */
function nodeAtSpans(
  index: TreeIndex,
  spansOf: (n: DocumentNode) => Span[],
  first: number,
  lastOrUndefined: number | undefined,
  columns: Pick<DocumentTarget, 'columnStart' | 'columnStop'>,
): DocumentNode | null {
  const last = lastOrUndefined ?? first;
  let best: { node: DocumentNode; score: number[] } | null = null;
  for (const n of index.order) {
    const spans = spansOf(n);
    if (spans.length === 0 || !spans.some((p) => p.at >= first && p.at <= last)) continue;
    const span = Math.max(...spans.map((p) => p.at)) - Math.min(...spans.map((p) => p.at));
    let columnsMiss = 0;
    if (columns.columnStart !== undefined && columns.columnStop !== undefined) {
      const hit = spans.some((p) => p.at === first && p.start < (columns.columnStop as number) && p.stop > (columns.columnStart as number));
      columnsMiss = hit ? 0 : 1;
    }
    const width = Math.max(...spans.map((p) => p.stop - p.start));
    const score = [columnsMiss, span, width, -depthOf(index, n)];
    if (!best || less(score, best.score)) best = { node: n, score };
  }
  return best?.node ?? null;
}

function depthOf(index: TreeIndex, n: DocumentNode): number {
  let depth = 0;
  for (let p = index.parentOf.get(n.id); p; p = index.parentOf.get(p.id)) depth++;
  return depth;
}

const less = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
};

/** The 1-based line range a node covers, or null when it carries no LINE position. */
export function lineRange(n: DocumentNode): { start: number; end: number } | null {
  const lines = linesOf(n).map((p) => p.line_number);
  return lines.length ? { start: Math.min(...lines), end: Math.max(...lines) } : null;
}

/** One cell of a table's grid, with the spans the parser gave it. */
export interface GridCell {
  node: DocumentNode;
  header: boolean;
  rowSpan: number;
  colSpan: number;
}

const span = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v > 1 ? Math.min(v, 1000) : 1);

/**
 * A table node as rows of cells, ready for an HTML table (`rowSpan`/`colSpan` as given: the
 * browser lays spans out). Rows are the table's `row` children; a cell directly under the table
 * becomes a row of its own, so no text is lost.
 */
export function tableRows(table: DocumentNode): GridCell[][] {
  const cell = (c: DocumentNode): GridCell => ({
    node: c,
    header: c.attributes?.header === true,
    rowSpan: span(c.attributes?.rowSpan),
    colSpan: span(c.attributes?.colSpan),
  });
  return table.children.map((r) => (r.type === 'row' ? r.children.map(cell) : [cell(r)]));
}

/** The bounding box of a node and its descendants on a page (a table's, when its own is missing). */
export function boxOf(n: DocumentNode, page: number): Box | null {
  const own = bboxesOf(n).filter((p) => p.page_number === page);
  if (own.length) return union(own.map((p) => p.bbox));
  const boxes = n.children.map((c) => boxOf(c, page)).filter((b): b is Box => !!b);
  return boxes.length ? union(boxes) : null;
}

/**
 * The LaTeX of a formula node: what formula_augmentation read (`attributes.latex`), else the text
 * when the parser says it is LaTeX; null for a formula only known as plain text.
 */
export function formulaLatex(n: DocumentNode): string | null {
  const a = n.attributes ?? {};
  if (typeof a.latex === 'string' && a.latex.trim()) return a.latex;
  if (a.notation === 'latex' && n.text.trim()) return n.text;
  return null;
}

/** LaTeX found inside a text node by formula_augmentation: `[start, end)` UTF-16 offsets in its text. */
export interface InlineFormula {
  latex: string;
  display: boolean;
  start: number;
  end: number;
}

/** The text of a node cut into plain runs and formulas, for rendering each formula with KaTeX. */
export function textRuns(n: DocumentNode): Array<{ text: string } | InlineFormula> {
  const raw = n.attributes?.formulas;
  const formulas = (Array.isArray(raw) ? raw : [])
    .filter(
      (f): f is InlineFormula =>
        !!f &&
        typeof f.latex === 'string' &&
        Number.isInteger(f.start) &&
        Number.isInteger(f.end) &&
        f.start >= 0 &&
        f.end <= n.text.length,
    )
    .sort((a, b) => a.start - b.start);
  const runs: Array<{ text: string } | InlineFormula> = [];
  let at = 0;
  for (const f of formulas) {
    if (f.start < at || f.end <= f.start) continue;
    if (f.start > at) runs.push({ text: n.text.slice(at, f.start) });
    runs.push({ latex: f.latex, display: f.display === true, start: f.start, end: f.end });
    at = f.end;
  }
  if (at < n.text.length || runs.length === 0) runs.push({ text: n.text.slice(at) });
  return runs;
}

/** The text under a node (its own, or its descendants' joined), for labels. */
export function textOf(n: DocumentNode, max = 200): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (m: DocumentNode) => {
    if (length >= max) return;
    if (m.text) {
      parts.push(m.text);
      length += m.text.length + 1;
    }
    m.children.forEach(visit);
  };
  visit(n);
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const TYPE_NAMES: Record<NodeType, string> = {
  document: 'Document',
  section: 'Section',
  heading: 'Heading',
  paragraph: 'Paragraph',
  list: 'List',
  list_item: 'List item',
  table: 'Table',
  row: 'Table row',
  cell: 'Table cell',
  formula: 'Formula',
  figure: 'Figure',
  page: 'Page',
  code: 'Code',
};

/** "Heading 2", "Table cell", "Paragraph": how a node's type is named to a person. */
export function typeName(n: DocumentNode): string {
  return n.type === 'heading' && n.level ? `Heading ${n.level}` : TYPE_NAMES[n.type];
}

/** A short label for a node: its type and the start of its text. */
export function nodeLabel(n: DocumentNode, max = 80): string {
  const text = textOf(n, max);
  return text ? `${typeName(n)}: ${text}` : typeName(n);
}

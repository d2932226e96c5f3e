import { createHash } from 'node:crypto';
import { linePositionsOf, type PassageSegment, type Position } from '@docintel/contracts';

/**
 * Leaf node types that are passages: the units a reader quotes and a citation points at. A cell is
 * a passage only outside a row (its row's passage covers it otherwise, one segment per cell).
 */
export const PASSAGE_LEAF_TYPES = ['heading', 'paragraph', 'list_item', 'formula', 'code', 'figure', 'cell'] as const;
/** Containers that are passages: a table row, its cells joined with " | ". */
export const PASSAGE_CONTAINER_TYPES = ['row'] as const;
export const ROW_SEPARATOR = ' | ';

/** One node of a tree in reading order, as much as the heading context needs. */
export interface OutlineNode {
  id: string;
  parentId: string | null;
  type: string;
  level: number | null;
  /** The heading's text (other nodes: anything, unused). */
  text: string;
  /** 0 for the root. */
  depth: number;
}

/** A node as a passage is built from. */
export interface SourceNode {
  id: string;
  parentId: string | null;
  type: string;
  text: string;
  positions: Position[];
}

export interface BuiltPassage {
  nodeId: string;
  nodeType: string;
  text: string;
  headings: string[];
  segments: PassageSegment[];
}

/**
 * The headings above each of `wanted`, outermost first, walking the tree in reading order. A heading
 * stays in force until one of the same or a higher level replaces it, or until the section that
 * holds it ends (flow formats nest content in sections opened by their heading; paginated formats
 * keep headings inside pages, and a page ending does not end a heading). A heading's own context is
 * the headings above it, without itself.
 */
export function headingsAbove(outline: OutlineNode[], wanted: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const stack: Array<{ level: number; text: string; scope: number }> = [];
  const sections: number[] = [];
  for (const node of outline) {
    while (sections.length && sections[sections.length - 1] >= node.depth) sections.pop();
    while (stack.length && stack[stack.length - 1].scope >= node.depth) stack.pop();
    const isHeading = node.type === 'heading' && node.text.trim().length > 0;
    const level = node.level ?? 1;
    if (isHeading) while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    if (wanted.has(node.id))
      out.set(
        node.id,
        stack.map((h) => h.text),
      );
    if (isHeading) stack.push({ level, text: node.text.trim(), scope: sections.length ? sections[sections.length - 1] : 0 });
    if (node.type === 'section') sections.push(node.depth);
  }
  return out;
}

/**
 * The first row of the table of each of these rows, when it is another row: the header a reader
 * needs to know what a row's values are ("Gadget | 12.5" is a unit price only under "Product | Unit price").
 */
export function tableHeaderRows(outline: OutlineNode[], rows: SourceNode[]): Map<string, string> {
  const firstRow = new Map<string, string>();
  for (const n of outline) if (n.type === 'row' && n.parentId && !firstRow.has(n.parentId)) firstRow.set(n.parentId, n.id);
  const out = new Map<string, string>();
  for (const r of rows) {
    const header = r.parentId ? firstRow.get(r.parentId) : undefined;
    if (header && header !== r.id) out.set(r.id, header);
  }
  return out;
}

/**
 * The headings of each passage with, for a table row, its table's header row (cells joined with
 * " | ") as the innermost heading; `fill` adds the header texts once their cells are read.
 */
export function withTableHeaders(headings: Map<string, string[]>, headerOf: ReadonlyMap<string, string>) {
  return {
    map: headings as ReadonlyMap<string, string[]>,
    fill(cells: ReadonlyMap<string, SourceNode[]>): void {
      for (const [row, header] of headerOf) {
        const text = (cells.get(header) ?? [])
          .map((c) => c.text.trim())
          .filter(Boolean)
          .join(ROW_SEPARATOR);
        if (text) headings.set(row, [...(headings.get(row) ?? []), text]);
      }
    },
  };
}

/**
 * The passages of some nodes: a leaf with text is one passage with one segment (its whole text and
 * its positions); a row is its cells' texts joined with " | ", one segment per cell with its offsets
 * in the row's text, so that a citation of part of a row points at the cell. Cells in rows, nodes
 * without text and other containers give no passage.
 */
export function buildPassages(
  nodes: SourceNode[],
  cellsOfRow: ReadonlyMap<string, SourceNode[]>,
  typeOf: ReadonlyMap<string, string>,
  headings: ReadonlyMap<string, string[]>,
): BuiltPassage[] {
  const leafTypes = new Set<string>(PASSAGE_LEAF_TYPES);
  const out: BuiltPassage[] = [];
  for (const node of nodes) {
    const context = headings.get(node.id) ?? [];
    if (node.type === 'row') {
      let text = '';
      const segments: PassageSegment[] = [];
      for (const cell of cellsOfRow.get(node.id) ?? []) {
        const value = cell.text.trim();
        if (!value) continue;
        if (text) text += ROW_SEPARATOR;
        segments.push({
          nodeId: cell.id,
          nodeType: cell.type,
          start: text.length,
          end: text.length + value.length,
          positions: cell.positions,
        });
        text += value;
      }
      if (text) out.push({ nodeId: node.id, nodeType: node.type, text, headings: context, segments });
      continue;
    }
    if (!leafTypes.has(node.type) || !node.text.trim()) continue;
    if (node.type === 'cell' && node.parentId && typeOf.get(node.parentId) === 'row') continue;
    textWindows(node.text).forEach(([from, to], k) => {
      const text = node.text.slice(from, to);
      out.push({
        nodeId: k === 0 ? node.id : windowId(node.id, k),
        nodeType: node.type,
        text,
        headings: context,
        segments: [
          {
            nodeId: node.id,
            nodeType: node.type,
            start: 0,
            end: text.length,
            positions: linePositionsOf(node.positions, node.text.length, from, to),
          },
        ],
      });
    });
  }
  return out;
}

/** Longest passage: a longer leaf (a page-long paragraph, a log file without blank lines) is read in windows. */
export const MAX_PASSAGE_CHARS = 2000;

/**
 * [from, to) windows of at most MAX_PASSAGE_CHARS covering a text, cut after a sentence end where
 * there is one in the window's second half, else at whitespace, else anywhere; the separator at a
 * cut belongs to no window, so each window's lines map back to the node's lines exactly.
 */
export function textWindows(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  while (text.length - start > MAX_PASSAGE_CHARS) {
    const window = text.slice(start, start + MAX_PASSAGE_CHARS + 1);
    const half = MAX_PASSAGE_CHARS / 2;
    let cut = -1;
    for (const m of window.matchAll(/[.!?][)"'\]]?(\s)/g)) if ((m.index ?? 0) >= half) cut = (m.index ?? 0) + m[0].length - 1;
    if (cut < 0) cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
    if (cut <= 0) {
      out.push([start, start + MAX_PASSAGE_CHARS]);
      start += MAX_PASSAGE_CHARS;
      continue;
    }
    out.push([start, start + cut]);
    start += cut + 1;
  }
  if (start < text.length || !out.length) out.push([start, text.length]);
  return out;
}

/** The passage id of window k (k >= 1) of a node: a UUID derived from the node id, stable across runs. */
export function windowId(nodeId: string, k: number): string {
  const h = createHash('sha1').update(`${nodeId}#${k}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

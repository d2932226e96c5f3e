import type { DocumentNode, NodeAttributes, NodeType, Position } from '../model';

export function node(
  type: NodeType,
  text = '',
  children: DocumentNode[] = [],
  positions: Position[] = [],
  attributes?: NodeAttributes,
): DocumentNode {
  const n: DocumentNode = { type, text, children, positions };
  if (attributes && Object.keys(attributes).length > 0) n.attributes = attributes;
  return n;
}

export function heading(text: string, level: number, positions: Position[] = []): DocumentNode {
  return { type: 'heading', text, level, children: [], positions };
}

/** Collapses runs of whitespace the way a browser renders inline text. */
export function collapseSpaces(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

/**
 * Builds the section tree of flow documents (docx, html, xml): a heading of level n opens a
 * section that holds everything up to the next heading of level <= n.
 */
export class SectionBuilder {
  readonly root: DocumentNode;
  private readonly stack: { level: number; node: DocumentNode }[];

  constructor(root: DocumentNode) {
    this.root = root;
    this.stack = [{ level: 0, node: root }];
  }

  add(n: DocumentNode): void {
    if (n.type === 'heading') {
      const level = Math.max(1, n.level ?? 1);
      while (this.stack.length > 1 && this.stack[this.stack.length - 1].level >= level) this.stack.pop();
      const section: DocumentNode = { type: 'section', text: '', children: [n], positions: [] };
      this.current().children.push(section);
      this.stack.push({ level, node: section });
      return;
    }
    this.current().children.push(n);
  }

  private current(): DocumentNode {
    return this.stack[this.stack.length - 1].node;
  }
}

/** Counts nodes of a finished tree. */
export function countNodes(n: DocumentNode): number {
  let count = 0;
  const stack = [n];
  while (stack.length) {
    const cur = stack.pop()!;
    count++;
    for (const c of cur.children) stack.push(c);
  }
  return count;
}

/** Maps character offsets of a text to 1-based line numbers and 0-based columns. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }

  locate(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - this.starts[lo] };
  }

  /** LINE positions covering [start, end) — one per line the span touches. */
  positions(start: number, end: number, lineText?: (line: number) => number): Position[] {
    const a = this.locate(start);
    const b = this.locate(Math.max(start, end - 1));
    const out: Position[] = [];
    for (let line = a.line; line <= b.line; line++) {
      const colStart = line === a.line ? a.col : 0;
      const colStop = line === b.line ? b.col + 1 : lineText ? lineText(line) : this.lineLength(line);
      out.push({ type: 'LINE', line_number: line, column_index_start: colStart, column_index_stop: colStop });
    }
    return out;
  }

  private lineLength(line: number): number {
    const start = this.starts[line - 1];
    const next = this.starts[line];
    return next === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, next - start - 1);
  }
}

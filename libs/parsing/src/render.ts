import type { DocumentNode, ParsedDocument } from './model';

/** The document as Markdown in reading order: headings, lists, tables as Markdown tables, $$formulas$$, fenced code. */
export function toMarkdown(doc: ParsedDocument | DocumentNode): string {
  const root = 'root' in doc ? doc.root : doc;
  return blocks(root, 'md').join('\n\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

/** The document as plain text in reading order; table rows become lines of tab-separated cells. */
export function toText(doc: ParsedDocument | DocumentNode): string {
  const root = 'root' in doc ? doc.root : doc;
  return blocks(root, 'text').join('\n\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

type Mode = 'md' | 'text';

function blocks(n: DocumentNode, mode: Mode): string[] {
  switch (n.type) {
    case 'document':
    case 'section':
    case 'page':
      return n.children.flatMap((c) => blocks(c, mode));
    case 'heading':
      return n.text ? [mode === 'md' ? `${'#'.repeat(Math.min(Math.max(n.level ?? 1, 1), 6))} ${oneLine(n.text)}` : n.text] : [];
    case 'paragraph':
      return n.text ? [n.text] : [];
    case 'list':
      return [list(n, mode, 0).join('\n')];
    case 'list_item':
      return [list({ ...n, type: 'list', children: [n] }, mode, 0).join('\n')];
    case 'table':
      return [mode === 'md' ? markdownTable(n) : textTable(n)];
    case 'row':
    case 'cell':
      return [n.text, ...n.children.flatMap((c) => blocks(c, mode))].filter(Boolean);
    case 'formula':
      return n.text ? [mode === 'md' ? `$$${n.text}$$` : n.text] : [];
    case 'code':
      return n.text ? [mode === 'md' ? `\`\`\`${n.attributes?.language ?? ''}\n${n.text}\n\`\`\`` : n.text] : [];
    case 'figure': {
      const inner = n.children.flatMap((c) => blocks(c, mode));
      const caption = n.text ? [mode === 'md' ? `*${oneLine(n.text)}*` : n.text] : [];
      return [...inner, ...caption];
    }
  }
}

function list(n: DocumentNode, mode: Mode, depth: number): string[] {
  const lines: string[] = [];
  const indent = '  '.repeat(depth);
  n.children.forEach((item, i) => {
    if (item.type === 'list') {
      lines.push(...list(item, mode, depth + 1));
      return;
    }
    const marker = mode === 'md' ? (n.attributes?.ordered ? `${i + 1}. ` : '- ') : '- ';
    if (item.text) lines.push(`${indent}${marker}${oneLine(item.text)}`);
    for (const c of item.children) {
      if (c.type === 'list') lines.push(...list(c, mode, depth + 1));
      else lines.push(...blocks(c, mode).map((b) => `${indent}  ${oneLine(b)}`));
    }
  });
  return lines;
}

/** Rows as a grid (spans repeat the spanning cell's text so the columns line up). */
function grid(table: DocumentNode): string[][] {
  const rows: string[][] = [];
  const pending = new Map<number, { text: string; left: number }>();
  for (const row of table.children.filter((r) => r.type === 'row')) {
    const out: string[] = [];
    let col = 0;
    const fillPending = () => {
      while (pending.has(col)) {
        const p = pending.get(col)!;
        out.push(p.text);
        if (--p.left <= 0) pending.delete(col);
        col++;
      }
    };
    for (const cell of row.children) {
      fillPending();
      const text = cellText(cell);
      const span = Math.min(cell.attributes?.colSpan ?? 1, 100);
      const rowSpan = Math.min(cell.attributes?.rowSpan ?? 1, 1000);
      for (let k = 0; k < span; k++) {
        out.push(text);
        if (rowSpan > 1) pending.set(col, { text, left: rowSpan - 1 });
        col++;
      }
    }
    fillPending();
    rows.push(out);
  }
  return rows;
}

function cellText(cell: DocumentNode): string {
  const nested = cell.children.flatMap((c) => blocks(c, 'text')).join(' ');
  return oneLine([cell.text, nested].filter(Boolean).join(' '));
}

function markdownTable(table: DocumentNode): string {
  const rows = grid(table);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => esc(r[i] ?? '')).join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

function textTable(table: DocumentNode): string {
  return grid(table).map((r) => r.join('\t')).join('\n');
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

import type { DocumentNode } from './model';
import { CONTAINERS, headingLevel, plainText, tableGrid } from './render-common';

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** Keeps text from turning into markup where a line would start a heading, quote, list or rule. */
function escapeBlockStarts(text: string): string {
  return text.replace(/^(\s*)([#>+*-]|\d+[.)])(?=\s|$)/gm, (_, space: string, mark: string) => `${space}\\${mark}`);
}

const tableCell = (s: string) => oneLine(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

function table(node: DocumentNode): string | null {
  const grid = tableGrid(node);
  if (!grid.length || !grid[0].length) return null;
  const line = (cells: string[]) => `| ${cells.map(tableCell).join(' | ')} |`;
  // Markdown tables need a header row: the first row is it.
  const [head, ...body] = grid;
  return [line(head), `| ${head.map(() => '---').join(' | ')} |`, ...body.map(line)].join('\n');
}

function list(node: DocumentNode, indent: string): string[] {
  const lines: string[] = [];
  let number = 1;
  for (const item of node.children) {
    if (item.type === 'list') {
      lines.push(...list(item, `${indent}  `));
      continue;
    }
    const marker = node.attributes?.ordered ? `${number++}.` : '-';
    const inner = `${indent}${' '.repeat(marker.length + 1)}`;
    const nested = item.children.filter((c) => c.type === 'list');
    const own = item.text || plainText({ ...item, text: '', children: item.children.filter((c) => c.type !== 'list') });
    lines.push(`${indent}${marker} ${escapeBlockStarts(oneLine(own))}`.trimEnd());
    for (const sub of nested) lines.push(...list(sub, inner));
  }
  return lines;
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

function blocks(node: DocumentNode, out: string[]): void {
  const children = () => node.children.forEach((c) => blocks(c, out));
  switch (node.type) {
    case 'heading':
      if (node.text.trim()) out.push(`${'#'.repeat(headingLevel(node))} ${oneLine(node.text)}`);
      return children();
    case 'paragraph':
      if (node.text.trim()) out.push(escapeBlockStarts(node.text.trim()));
      return children();
    case 'list':
      if (node.children.length) out.push(list(node, '').join('\n'));
      return;
    case 'list_item':
      out.push(list({ ...node, type: 'list', text: '', children: [node] }, '').join('\n'));
      return;
    case 'table': {
      const md = table(node);
      if (md) out.push(md);
      return;
    }
    case 'formula':
      if (!node.text.trim()) return;
      out.push(node.attributes?.notation === 'text' ? `\`${oneLine(node.text)}\`` : `$$\n${node.text.trim()}\n$$`);
      return;
    case 'code':
      out.push(fence(node.text.replace(/\n+$/, ''), String(node.attributes?.language ?? '')));
      return;
    case 'figure':
      if (node.text.trim()) out.push(`*${oneLine(node.text).replace(/\*/g, '\\*')}*`);
      return children();
    default:
      if (CONTAINERS.has(node.type) && !node.children.length && node.text.trim()) out.push(escapeBlockStarts(node.text.trim()));
      return children();
  }
}

/** The document as Markdown, in reading order: headings, paragraphs, lists, tables as Markdown tables. */
export function renderMarkdown(root: DocumentNode): string {
  const out: string[] = [];
  blocks(root, out);
  return out.length ? `${out.join('\n\n')}\n` : '';
}

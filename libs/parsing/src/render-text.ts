import type { DocumentNode } from './model';
import { CONTAINERS, plainText, tableGrid } from './render-common';

function list(node: DocumentNode, indent: string, out: string[]): void {
  let number = 1;
  for (const item of node.children) {
    if (item.type === 'list') {
      list(item, `${indent}  `, out);
      continue;
    }
    const marker = node.attributes?.ordered ? `${number++}.` : '-';
    const own = item.text || plainText({ ...item, text: '', children: item.children.filter((c) => c.type !== 'list') });
    out.push(`${indent}${marker} ${own.replace(/\s*\n\s*/g, ' ').trim()}`.trimEnd());
    for (const sub of item.children.filter((c) => c.type === 'list')) list(sub, `${indent}  `, out);
  }
}

function blocks(node: DocumentNode, out: string[]): void {
  const children = () => node.children.forEach((c) => blocks(c, out));
  switch (node.type) {
    case 'list': {
      const lines: string[] = [];
      list(node, '', lines);
      if (lines.length) out.push(lines.join('\n'));
      return;
    }
    case 'list_item': {
      const lines: string[] = [];
      list({ ...node, type: 'list', text: '', children: [node] }, '', lines);
      out.push(lines.join('\n'));
      return;
    }
    case 'table': {
      // One line per row, cells separated by tabs.
      const grid = tableGrid(node);
      if (grid.length) out.push(grid.map((r) => r.map((c) => c.replace(/[\t\n]+/g, ' ')).join('\t')).join('\n'));
      return;
    }
    case 'code':
      if (node.text) out.push(node.text.replace(/\n+$/, ''));
      return;
    default:
      if (CONTAINERS.has(node.type) && node.children.length) return children();
      if (node.text.trim()) out.push(node.text.trim());
      return children();
  }
}

/** The document as plain text in reading order: one block per heading, paragraph, list or table, blank lines between. */
export function renderText(root: DocumentNode): string {
  const out: string[] = [];
  blocks(root, out);
  return out.length ? `${out.join('\n\n')}\n` : '';
}

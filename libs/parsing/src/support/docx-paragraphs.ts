import type { ChildNode, Element } from 'domhandler';
import type { Position } from '../model';

/**
 * The PARAGRAPH positions of a DOCX body: every <w:p> element of word/document.xml numbered in
 * document order (start tags, so a text box's paragraphs come right after the paragraph that holds
 * them), and each paragraph's text as the position contract defines it: its own <w:t> texts, <w:tab/>
 * as "\t", <w:br/> and <w:cr/> as "\n", nothing of the paragraphs nested inside it.
 */
export class DocxParagraphs {
  private readonly index = new Map<Element, number>();

  /** Numbers every <w:p> under `root`, skipped parts (deleted runs, mc:Fallback copies) included. */
  constructor(root: Element) {
    let n = 0;
    const stack: ChildNode[] = [root];
    while (stack.length) {
      const cur = stack.pop()!;
      if (cur.type !== 'tag') continue;
      const el = cur as Element;
      if (el.name === 'w:p') this.index.set(el, n++);
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
    }
  }

  /** The position of the whole text of paragraph `p` without its leading and trailing white space. */
  position(p: Element): Position[] {
    const i = this.index.get(p);
    if (i === undefined) return [];
    const text = paragraphText(p);
    const start = text.length - text.trimStart().length;
    const stop = Math.max(start, text.trimEnd().length);
    return [{ type: 'PARAGRAPH', paragraph_index: i, column_index_start: start, column_index_stop: stop }];
  }
}

/** A paragraph's text by the position contract's rule. */
export function paragraphText(p: Element): string {
  let out = '';
  const visit = (list: ChildNode[]) => {
    for (const c of list) {
      if (c.type !== 'tag') continue;
      const e = c as Element;
      // Nested paragraphs have their own text; w:pPr holds tab stops (w:tab), not text.
      if (e.name === 'w:p' || e.name === 'w:pPr' || e.name === 'w:rPr') continue;
      if (e.name === 'w:t') out += e.children.map((t) => (t.type === 'text' ? t.data : '')).join('');
      else if (e.name === 'w:tab') out += '\t';
      else if (e.name === 'w:br' || e.name === 'w:cr') out += '\n';
      else visit(e.children);
    }
  };
  visit(p.children);
  return out;
}

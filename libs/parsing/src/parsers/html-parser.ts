import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { limitExceeded, tooManyNodes } from '../errors';
import type { DocumentMetadata, DocumentNode, Position } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { declaredCharset, decodeText } from '../support/decode';
import { LineIndex, SectionBuilder, collapseSpaces, countNodes, heading, node } from '../support/nodes';

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'select',
  'button',
  'input',
  'textarea',
  'map',
  'audio',
  'video',
  'ix:header',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'blockquote',
  'center',
  'form',
  'fieldset',
  'address',
  'body',
  'html',
  'dl',
  'dd',
  'dt',
  'hr',
  'caption',
  'details',
  'summary',
  'legend',
  'tbody',
  'thead',
  'tfoot',
  'li',
  'figcaption',
]);

/** HTML/HTM: headings, paragraphs, lists, tables, code, MathML formulas; scripts, styles and hidden parts dropped. */
export class HtmlParser implements Parser {
  readonly family = 'html' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const text = decodeText(ctx.bytes, declaredCharset(ctx.bytes));
    const dom = parseDocument(text, { decodeEntities: true, lowerCaseTags: true, withStartIndices: true, withEndIndices: true });
    ctx.checkpoint();
    const root = node('document');
    const sections = new SectionBuilder(root);
    const walker = new HtmlWalker(ctx, new SourceLines(text));
    for (const block of walker.blocks(dom.children)) sections.add(block);
    if (countNodes(root) > ctx.limits.maxNodes) throw tooManyNodes(ctx.limits.maxNodes);
    return { root, metadata: htmlMetadata(dom.children), warnings: [] };
  }
}

/**
 * LINE positions in the decoded HTML source. A node's range runs from the start of its first piece
 * (element or text, leading white space left out) to the end of its last one.
 */
export class SourceLines {
  private readonly lines: LineIndex;

  constructor(private readonly source: string) {
    this.lines = new LineIndex(source);
  }

  /** [start, end) of a DOM node in the source; for text, without its leading and trailing white space. */
  range(n: ChildNode): [number, number] | undefined {
    if (n.startIndex == null || n.endIndex == null) return undefined;
    let start = n.startIndex;
    let end = n.endIndex + 1;
    if (n.type === 'text') {
      while (start < end && isSpace(this.source.charCodeAt(start))) start++;
      while (end > start && isSpace(this.source.charCodeAt(end - 1))) end--;
    }
    return start < end ? [start, end] : undefined;
  }

  positions(range: [number, number] | undefined): Position[] {
    return range ? this.lines.positions(range[0], range[1]) : [];
  }

  of(n: ChildNode): Position[] {
    return this.positions(this.range(n));
  }
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** Turns a DOM subtree into block nodes; shared by the HTML parser only (XML has its own mapping). */
export class HtmlWalker {
  private visited = 0;

  constructor(
    private readonly ctx: ParseContext,
    private readonly source: SourceLines,
  ) {}

  blocks(nodes: ChildNode[], depth = 0): DocumentNode[] {
    const out: DocumentNode[] = [];
    let buf = '';
    let span: [number, number] | undefined;
    const extend = (n: ChildNode) => {
      const r = this.source.range(n);
      if (r) span = span ? [span[0], Math.max(span[1], r[1])] : r;
    };
    const flush = () => {
      const t = collapseSpaces(buf);
      if (t) out.push(node('paragraph', t, [], this.source.positions(span)));
      buf = '';
      span = undefined;
    };
    const visit = (list: ChildNode[], d: number) => {
      if (d > this.ctx.limits.maxDepth) {
        throw limitExceeded(`The HTML is nested more than ${this.ctx.limits.maxDepth} levels deep, which is over the limit.`);
      }
      for (const n of list) {
        if (++this.visited % 20000 === 0) this.ctx.checkpoint();
        if (n.type === 'text') {
          buf += n.data;
          extend(n);
          continue;
        }
        if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
        const el = n as Element;
        const name = el.name.toLowerCase();
        if (SKIPPED.has(name) || isHidden(el)) continue;
        const h = /^h([1-6])$/.exec(name);
        if (h) {
          flush();
          const t = collapseSpaces(inlineText(el));
          if (t) out.push(heading(t, Number(h[1]), this.source.of(el)));
        } else if (name === 'ul' || name === 'ol' || name === 'menu') {
          flush();
          out.push(this.list(el, d));
        } else if (name === 'table') {
          flush();
          out.push(...this.table(el, d));
        } else if (name === 'pre') {
          flush();
          const t = inlineText(el).replace(/^\n/, '').replace(/\s+$/, '');
          if (t) out.push(node('code', t, [], this.source.of(el)));
        } else if (name === 'math') {
          const t = mathText(el);
          if (el.attribs.display === 'block') {
            flush();
            if (t) out.push(node('formula', t, [], this.source.of(el), { notation: el.attribs.alttext ? 'latex' : 'text' }));
          } else {
            buf += ` ${t} `;
            extend(el);
          }
        } else if (name === 'img') {
          const alt = collapseSpaces(el.attribs.alt ?? '');
          if (alt) {
            flush();
            out.push(node('figure', alt, [], this.source.of(el)));
          }
        } else if (name === 'figure') {
          flush();
          const caption = el.children.find((c) => c.type === 'tag' && (c as Element).name === 'figcaption') as Element | undefined;
          const inner = this.blocks(
            el.children.filter((c) => c !== caption),
            d + 1,
          );
          out.push(node('figure', caption ? collapseSpaces(inlineText(caption)) : '', inner, this.source.of(caption ?? el)));
        } else if (name === 'br') {
          buf += '\n';
        } else if (BLOCKS.has(name)) {
          flush();
          visit(el.children, d + 1);
          flush();
        } else {
          // Inline element: its text continues the current paragraph; blocks inside it still split.
          if (name === 'td' || name === 'th' || name === 'tr') buf += ' ';
          visit(el.children, d + 1);
          if (name === 'td' || name === 'th') buf += ' ';
        }
      }
    };
    visit(nodes, depth);
    flush();
    return out;
  }

  private list(el: Element, depth: number): DocumentNode {
    const list = node('list', '', [], [], { ordered: el.name === 'ol' });
    for (const c of el.children) {
      if (c.type !== 'tag') continue;
      const li = c as Element;
      if (li.name !== 'li') {
        list.children.push(
          ...this.blocks([li], depth + 1).map((b) => (b.type === 'list' ? b : node('list_item', b.text, b.children, b.positions))),
        );
        continue;
      }
      list.children.push(this.listItem(this.blocks(li.children, depth + 1), this.source.of(li)));
    }
    return list;
  }

  private listItem(blocks: DocumentNode[], positions: Position[]): DocumentNode {
    const texts = blocks.filter((b) => b.type === 'paragraph' || b.type === 'heading').map((b) => b.text);
    const rest = blocks.filter((b) => b.type !== 'paragraph' && b.type !== 'heading');
    return node('list_item', texts.join(' '), rest, positions);
  }

  private table(el: Element, depth: number): DocumentNode[] {
    const rows: DocumentNode[] = [];
    const collectRows = (parent: Element, inHead: boolean) => {
      for (const c of parent.children) {
        if (c.type !== 'tag') continue;
        const e = c as Element;
        if (e.name === 'thead' || e.name === 'tbody' || e.name === 'tfoot') collectRows(e, e.name === 'thead');
        else if (e.name === 'tr' && !isHidden(e)) rows.push(this.row(e, inHead, depth));
        else if (e.name === 'caption') {
          const t = collapseSpaces(inlineText(e));
          if (t) rows.push(node('paragraph', t, [], this.source.of(e)));
        }
      }
    };
    collectRows(el, false);
    const captions = rows.filter((r) => r.type === 'paragraph');
    const real = rows.filter((r) => r.type === 'row' && r.children.some((c) => c.text !== '' || c.children.length > 0));
    const cells = real.reduce((n, r) => n + r.children.length, 0);
    if (cells === 0) return captions;
    // A table holding a single cell is layout, not data: keep its content as blocks.
    if (cells === 1) {
      const only = real[0].children[0];
      return [...captions, ...(only.text ? [node('paragraph', only.text, [], only.positions)] : []), ...only.children];
    }
    return [...captions, node('table', '', real)];
  }

  private row(tr: Element, inHead: boolean, depth: number): DocumentNode {
    const row = node('row');
    for (const c of tr.children) {
      if (c.type !== 'tag') continue;
      const td = c as Element;
      if (td.name !== 'td' && td.name !== 'th') continue;
      const blocks = this.blocks(td.children, depth + 1);
      const text = blocks
        .filter((b) => b.type !== 'table' && b.type !== 'list')
        .map((b) => b.text)
        .filter(Boolean)
        .join(' ');
      const nested = blocks.filter((b) => b.type === 'table' || b.type === 'list');
      const attributes: DocumentNode['attributes'] = {};
      const colSpan = Number(td.attribs.colspan);
      const rowSpan = Number(td.attribs.rowspan);
      if (colSpan > 1) attributes.colSpan = Math.min(colSpan, 1000);
      if (rowSpan > 1) attributes.rowSpan = Math.min(rowSpan, 10000);
      if (td.name === 'th' || inHead) attributes.header = true;
      row.children.push(node('cell', text, nested, text ? this.source.of(td) : [], attributes));
    }
    return row;
  }
}

function isHidden(el: Element): boolean {
  const style = el.attribs.style;
  return el.attribs.hidden !== undefined || (!!style && /display\s*:\s*none/i.test(style));
}

/** Text of an element as rendered inline (no block handling), skipping scripts and hidden parts. */
export function inlineText(el: Element): string {
  let out = '';
  const visit = (list: ChildNode[]) => {
    for (const n of list) {
      if (n.type === 'text') out += n.data;
      else if (n.type === 'tag') {
        const e = n as Element;
        if (SKIPPED.has(e.name) || isHidden(e)) continue;
        if (e.name === 'br') out += '\n';
        else if (e.name === 'math') out += ` ${mathText(e)} `;
        else visit(e.children);
      }
    }
  };
  visit(el.children);
  return out;
}

/** MathML: the TeX annotation or alttext when present, else the text of the math elements. */
function mathText(el: Element): string {
  if (el.attribs.alttext) return el.attribs.alttext.trim();
  let tex: string | undefined;
  let plain = '';
  const visit = (list: ChildNode[]) => {
    for (const n of list) {
      if (n.type === 'text') plain += n.data;
      else if (n.type === 'tag') {
        const e = n as Element;
        if (e.name === 'annotation') {
          if (/tex/i.test(e.attribs.encoding ?? '')) tex = inlineText(e).trim();
          continue;
        }
        visit(e.children);
        if (e.name === 'mi' || e.name === 'mo' || e.name === 'mn') plain += ' ';
      }
    }
  };
  visit(el.children);
  return tex ?? collapseSpaces(plain);
}

function htmlMetadata(nodes: ChildNode[]): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const visit = (list: ChildNode[], depth: number) => {
    if (depth > 6) return;
    for (const n of list) {
      if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
      const e = n as Element;
      if (e.name === 'html' && e.attribs.lang) meta.language = e.attribs.lang;
      if (e.name === 'title' && !meta.title) {
        const t = collapseSpaces(inlineText(e));
        if (t) meta.title = t;
      }
      if (e.name === 'meta') {
        const name = (e.attribs.name ?? '').toLowerCase();
        const content = collapseSpaces(e.attribs.content ?? '');
        if (name === 'author' && content) meta.authors = [content];
        if ((name === 'dc.date' || name === 'date') && content) meta.creationDate = content;
      }
      if (e.name === 'html' || e.name === 'head') visit(e.children, depth + 1);
    }
  };
  visit(nodes, 0);
  return meta;
}

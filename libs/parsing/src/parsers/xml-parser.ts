import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { corrupt, limitExceeded, tooManyNodes } from '../errors';
import type { DocumentMetadata, DocumentNode, Position } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { declaredCharset, decodeText } from '../support/decode';
import { LineIndex, collapseSpaces, heading, node } from '../support/nodes';

const HEADINGS = new Set(['title', 'article-title', 'subtitle', 'heading', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'invention-title']);
const PROSE = new Set([
  'p',
  'para',
  'paragraph',
  'caption',
  'label',
  'claim-text',
  'abstract',
  'td',
  'th',
  'entry',
  'li',
  'list-item',
  'listitem',
  'title',
  'article-title',
]);
const LISTS = new Set(['list', 'ul', 'ol', 'itemizedlist', 'orderedlist']);
const LIST_ITEMS = new Set(['list-item', 'li', 'listitem']);
const TABLES = new Set(['table']);
const ROWS = new Set(['tr', 'row']);
const CELLS = new Set(['td', 'th', 'entry']);
const FORMULAS = new Set(['disp-formula', 'math', 'tex-math', 'formula', 'maths']);
const FIGURES = new Set(['fig', 'figure']);
const CODE = new Set(['code', 'programlisting', 'preformat', 'pre']);

/**
 * XML: the element structure is kept. Elements with element children become sections (headed by
 * their title child when they have one), prose and mixed-content elements paragraphs, data leaves
 * "name: value" paragraphs; common vocabularies (JATS, DocBook, XHTML and CALS tables, USPTO) map
 * lists, tables, figures and formulas to their node types. Every node keeps its LINE positions.
 */
export class XmlParser implements Parser {
  readonly family = 'xml' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const text = decodeText(ctx.bytes, declaredCharset(ctx.bytes));
    const dom = parseDocument(text, { xmlMode: true, withStartIndices: true, withEndIndices: true, decodeEntities: true });
    const rootEl = dom.children.find((c) => c.type === 'tag') as Element | undefined;
    if (!rootEl) throw corrupt('the XML has no root element.');
    ctx.checkpoint();
    const builder = new XmlTreeBuilder(new LineIndex(text), ctx);
    const root = node('document', '', builder.element(rootEl, 0, 1));
    return { root, metadata: xmlMetadata(rootEl), warnings: [] };
  }
}

const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
const elements = (el: Element) => el.children.filter((c): c is Element => c.type === 'tag');
const hasDirectText = (el: Element) => el.children.some((c) => c.type === 'text' && c.data.trim() !== '');

export function textContent(el: Element): string {
  let out = '';
  const visit = (list: ChildNode[]) => {
    for (const c of list) {
      if (c.type === 'text' || c.type === 'cdata') out += c.type === 'text' ? c.data : textContent(c as unknown as Element);
      else if (c.type === 'tag') {
        const e = c as Element;
        const n = local(e.name);
        if (n === 'annotation-xml') continue;
        visit(e.children);
        if (n === 'br' || n === 'mi' || n === 'mo' || n === 'mn') out += ' ';
      }
    }
  };
  visit(el.children);
  return out;
}

class XmlTreeBuilder {
  private count = 0;

  constructor(
    private readonly lines: LineIndex,
    private readonly ctx: ParseContext,
  ) {}

  element(el: Element, depth: number, level: number): DocumentNode[] {
    if (depth > this.ctx.limits.maxDepth) {
      throw limitExceeded(`The XML is nested more than ${this.ctx.limits.maxDepth} levels deep, which is over the limit.`);
    }
    if (++this.count > this.ctx.limits.maxNodes) throw tooManyNodes(this.ctx.limits.maxNodes);
    if (this.count % 10000 === 0) this.ctx.checkpoint();
    const name = local(el.name);
    const pos = this.pos(el);
    const kids = elements(el);
    const text = () => collapseSpaces(textContent(el));

    if (FORMULAS.has(name)) {
      const tex = kids.find((k) => local(k.name) === 'tex-math');
      const t = collapseSpaces(tex ? textContent(tex) : textContent(el));
      return t ? [node('formula', t, [], pos, { notation: tex || name === 'tex-math' ? 'latex' : 'text' })] : [];
    }
    if (CODE.has(name)) return [node('code', textContent(el).trim(), [], pos)];
    if (TABLES.has(name)) return [this.table(el, depth)];
    if (LISTS.has(name)) {
      const list = node('list', '', [], pos, { ordered: /ordered|ol/.test(name) || el.attribs['list-type'] === 'order' });
      for (const k of kids) {
        if (LIST_ITEMS.has(local(k.name))) list.children.push(this.listItem(k, depth + 1, level));
        else list.children.push(...this.element(k, depth + 1, level));
      }
      return [list];
    }
    if (HEADINGS.has(name)) {
      const t = text();
      return t ? [heading(t, Math.min(level, 6), pos)] : [];
    }
    if (FIGURES.has(name)) {
      const caption = kids.find((k) => ['caption', 'title', 'label'].includes(local(k.name)));
      return [node('figure', caption ? collapseSpaces(textContent(caption)) : '', [], pos)];
    }
    if (kids.length === 0 || hasDirectText(el) || PROSE.has(name)) {
      const t = text();
      if (!t) return [];
      const prose = PROSE.has(name) || (hasDirectText(el) && kids.length > 0);
      return [node('paragraph', prose ? t : `${el.name}: ${t}`, [], pos, { name: el.name })];
    }
    const titled = kids.some((k) => HEADINGS.has(local(k.name)));
    const children = kids.flatMap((k) => this.element(k, depth + 1, titled ? level + 1 : level));
    if (children.length === 0) return [];
    if (titled) {
      // The heading child was built one level deeper; it belongs to this section's level.
      for (const c of children) if (c.type === 'heading' && c.level === Math.min(level + 1, 6)) c.level = Math.min(level, 6);
    }
    return [node('section', '', children, pos, { name: el.name })];
  }

  private listItem(el: Element, depth: number, level: number): DocumentNode {
    const blocks =
      elements(el).length === 0
        ? [node('paragraph', collapseSpaces(textContent(el)))]
        : elements(el).flatMap((k) => this.element(k, depth + 1, level));
    const texts = blocks.filter((b) => b.type === 'paragraph').map((b) => b.text);
    return node(
      'list_item',
      texts.join(' '),
      blocks.filter((b) => b.type !== 'paragraph'),
      this.pos(el),
    );
  }

  private table(el: Element, depth: number): DocumentNode {
    const table = node('table', '', [], this.pos(el));
    const visit = (e: Element, inHead: boolean, d: number) => {
      for (const k of elements(e)) {
        const n = local(k.name);
        if (ROWS.has(n)) {
          const row = node('row', '', [], this.pos(k));
          for (const c of elements(k)) {
            if (!CELLS.has(local(c.name))) continue;
            const attributes: DocumentNode['attributes'] = {};
            if (local(c.name) === 'th' || inHead) attributes.header = true;
            const cs = Number(c.attribs.colspan);
            if (cs > 1) attributes.colSpan = cs;
            const rs = Number(c.attribs.rowspan ?? (c.attribs.morerows ? Number(c.attribs.morerows) + 1 : NaN));
            if (rs > 1) attributes.rowSpan = rs;
            this.count++;
            row.children.push(node('cell', collapseSpaces(textContent(c)), [], this.pos(c), attributes));
          }
          table.children.push(row);
        } else if (d < 6) visit(k, inHead || n === 'thead', d + 1);
      }
    };
    visit(el, false, depth);
    if (this.count > this.ctx.limits.maxNodes) throw tooManyNodes(this.ctx.limits.maxNodes);
    return table;
  }

  private pos(el: Element): Position[] {
    if (el.startIndex == null || el.endIndex == null) return [];
    const all = this.lines.positions(el.startIndex, el.endIndex + 1);
    return all.length > 2 ? [all[0], all[all.length - 1]] : all;
  }
}

function xmlMetadata(root: Element): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const lang = root.attribs['xml:lang'];
  if (lang) meta.language = lang;
  // JATS and USPTO titles; a generic XML file has no standard place for one.
  const stack = [root];
  let seen = 0;
  while (stack.length && seen++ < 5000) {
    const e = stack.shift()!;
    const n = local(e.name);
    if ((n === 'article-title' || n === 'invention-title') && !meta.title) meta.title = collapseSpaces(textContent(e));
    if (n === 'article-meta') Object.assign(meta, jatsArticleMeta(e));
    else stack.push(...elements(e));
  }
  return meta;
}

const child = (el: Element, name: string) => elements(el).find((c) => local(c.name) === name);

/**
 * A JATS article's own authors and publication date, from its <article-meta> only: the names of
 * its references and of its editors are not its authors.
 */
function jatsArticleMeta(articleMeta: Element): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const title = child(articleMeta, 'title-group');
  const articleTitle = title && child(title, 'article-title');
  if (articleTitle) meta.title = collapseSpaces(textContent(articleTitle));
  const authors: string[] = [];
  for (const group of elements(articleMeta).filter((e) => local(e.name) === 'contrib-group')) {
    for (const contrib of elements(group)) {
      if (local(contrib.name) !== 'contrib' || (contrib.attribs['contrib-type'] ?? 'author') !== 'author') continue;
      const name = child(contrib, 'name');
      const collab = child(contrib, 'collab');
      const given = name && child(name, 'given-names');
      const surname = name && child(name, 'surname');
      const full = name
        ? [given, surname]
            .map((e) => (e ? collapseSpaces(textContent(e)) : ''))
            .filter(Boolean)
            .join(' ')
        : collab
          ? collapseSpaces(textContent(collab))
          : '';
      if (full && authors.length < 200) authors.push(full);
    }
  }
  if (authors.length) meta.authors = authors;
  const dates = elements(articleMeta).filter((e) => local(e.name) === 'pub-date');
  // The date the article came out, before the collection date.
  const published = dates.find((d) => ['pub', 'epub', 'ppub'].includes(d.attribs['date-type'] ?? d.attribs['pub-type'] ?? '')) ?? dates[0];
  const iso = published && jatsDate(published);
  if (iso) meta.creationDate = iso;
  return meta;
}

/** <pub-date><day>1</day><month>6</month><year>2020</year></pub-date> as 2020-06-01 (a date without its day or month is left out). */
function jatsDate(el: Element): string | undefined {
  const part = (name: string) => {
    const e = child(el, name);
    return e ? Number(textContent(e).trim()) : NaN;
  };
  const [y, m, d] = [part('year'), part('month'), part('day')];
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d) || y < 1000 || m < 1 || m > 12 || d < 1 || d > 31)
    return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

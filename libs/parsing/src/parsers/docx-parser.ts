import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { corrupt, tooManyNodes } from '../errors';
import type { DocumentMetadata, DocumentNode, Position } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { DocxParagraphs } from '../support/docx-paragraphs';
import { SectionBuilder, collapseSpaces, countNodes, heading, node } from '../support/nodes';
import { readZipEntries } from '../support/zip';

interface StyleInfo {
  name: string;
  headingLevel?: number;
  code: boolean;
  numId?: string;
  ilvl?: number;
  basedOn?: string;
}

const xml = (b: Buffer | undefined): Element[] =>
  b ? (parseDocument(b.toString('utf8'), { xmlMode: true }).children.filter((c) => c.type === 'tag') as Element[]) : [];
const kids = (el: Element) => el.children.filter((c): c is Element => c.type === 'tag');
const child = (el: Element | undefined, name: string) => (el ? kids(el).find((k) => k.name === name) : undefined);
const val = (el: Element | undefined) => el?.attribs['w:val'] ?? el?.attribs['m:val'];

function find(el: Element, name: string): Element | undefined {
  for (const k of kids(el)) {
    if (k.name === name) return k;
    const f = find(k, name);
    if (f) return f;
  }
  return undefined;
}

/**
 * DOCX, read from its WordprocessingML: headings (heading styles and outline levels), nested lists
 * (numbering), tables (with spans), text boxes, and OMML equations kept as formula nodes in a
 * LaTeX-like linear form. Headers, footers and comments are not part of the body and are left out.
 */
export class DocxParser implements Parser {
  readonly family = 'docx' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const entries = readZipEntries(
      ctx.bytes,
      (n) => ['word/document.xml', 'word/styles.xml', 'word/numbering.xml', 'docProps/core.xml', 'docProps/app.xml'].includes(n),
      Math.max(ctx.limits.maxBytes, 64 * 1024 * 1024),
      'Word document',
    );
    const documentXml = entries.get('word/document.xml');
    if (!documentXml) throw corrupt('the Word document has no main part (word/document.xml).');
    const styles = readStyles(xml(entries.get('word/styles.xml')));
    const numbering = new Numbering(xml(entries.get('word/numbering.xml')));
    const docEl = xml(documentXml).find((e) => e.name === 'w:document');
    const body = docEl && child(docEl, 'w:body');
    if (!body) throw corrupt('the Word document has no body.');
    ctx.checkpoint();

    const root = node('document');
    const sections = new SectionBuilder(root);
    const reader = new BodyReader(styles, numbering, new DocxParagraphs(docEl), ctx);
    for (const block of reader.blocks(kids(body))) sections.add(block);
    if (countNodes(root) > ctx.limits.maxNodes) throw tooManyNodes(ctx.limits.maxNodes);
    return { root, metadata: coreMetadata(entries), warnings: [] };
  }
}

class BodyReader {
  private visited = 0;

  constructor(
    private readonly styles: Map<string, StyleInfo>,
    private readonly numbering: Numbering,
    private readonly paragraphs: DocxParagraphs,
    private readonly ctx: ParseContext,
  ) {}

  /** Block nodes for a run of body-level elements; consecutive numbered paragraphs become (nested) lists. */
  blocks(elements: Element[]): DocumentNode[] {
    const out: DocumentNode[] = [];
    let lists: DocumentNode[] = [];
    const closeLists = () => {
      lists = [];
    };
    for (const el of elements) {
      if (++this.visited % 2000 === 0) this.ctx.checkpoint();
      if (el.name === 'w:p') {
        const { block, extra, list } = this.paragraph(el);
        if (list && block) {
          const level = Math.min(list.ilvl, 8);
          if (lists.length === 0) {
            lists.push(node('list', '', [], [], { ordered: list.ordered }));
            out.push(lists[0]);
          }
          while (lists.length > level + 1) lists.pop();
          while (lists.length < level + 1) {
            const parent = lists[lists.length - 1];
            const nested = node('list', '', [], [], { ordered: list.ordered });
            const host = parent.children[parent.children.length - 1] ?? (parent.children.push(node('list_item')), parent.children[0]);
            host.children.push(nested);
            lists.push(nested);
          }
          lists[lists.length - 1].children.push(node('list_item', block.text, block.type === 'formula' ? [block] : [], block.positions));
        } else {
          if (block) {
            closeLists();
            out.push(block);
          }
        }
        if (extra.length) {
          closeLists();
          out.push(...extra);
        }
      } else if (el.name === 'w:tbl') {
        closeLists();
        out.push(this.table(el));
      } else if (el.name === 'w:sdt') {
        const content = child(el, 'w:sdtContent');
        if (content) out.push(...this.blocks(kids(content)));
      } else if (el.name === 'm:oMathPara' || el.name === 'm:oMath') {
        closeLists();
        const t = collapseSpaces(omml(el));
        if (t) out.push(node('formula', t, [], [], { notation: 'latex' }));
      } else if (el.name === 'w:customXml' || el.name === 'w:ins') {
        out.push(...this.blocks(kids(el)));
      }
    }
    return out;
  }

  private paragraph(p: Element): { block?: DocumentNode; extra: DocumentNode[]; list?: { ilvl: number; ordered: boolean } } {
    const pPr = child(p, 'w:pPr');
    const styleId = val(child(pPr, 'w:pStyle'));
    const style = styleId ? this.styles.get(styleId) : undefined;
    const extra: DocumentNode[] = [];
    const formulas: string[] = [];
    let text = '';
    const visit = (list: ChildNode[]) => {
      for (const c of list) {
        if (c.type !== 'tag') continue;
        const e = c as Element;
        switch (e.name) {
          case 'w:t':
            text += e.children.map((t) => (t.type === 'text' ? t.data : '')).join('');
            break;
          case 'w:tab':
            text += '\t';
            break;
          case 'w:br':
          case 'w:cr':
            text += '\n';
            break;
          case 'w:noBreakHyphen':
            text += '-';
            break;
          case 'w:del':
          case 'w:pPr':
          case 'w:rPr':
          case 'w:instrText':
          case 'mc:Fallback':
          case 'w:footnoteReference':
            break;
          case 'm:oMathPara':
          case 'm:oMath': {
            const t = collapseSpaces(omml(e));
            if (e.name === 'm:oMathPara') formulas.push(t);
            else text += ` ${t} `;
            break;
          }
          case 'w:txbxContent':
            extra.push(...this.blocks(kids(e)));
            break;
          default:
            visit(e.children);
        }
      }
    };
    visit(p.children);
    const numPr = child(pPr, 'w:numPr');
    const numId = val(child(numPr, 'w:numId')) ?? style?.numId;
    const ilvl = Number(val(child(numPr, 'w:ilvl')) ?? style?.ilvl ?? 0);
    const outline = val(child(pPr, 'w:outlineLvl'));
    const level = style?.headingLevel ?? (outline !== undefined && Number(outline) < 9 ? Number(outline) + 1 : undefined);
    const clean = text
      .replace(/[ \t]*\n[ \t]*/g, '\n')
      .replace(/[ \t]+/g, ' ')
      .trim();

    const pos = () => this.paragraphs.position(p);
    let block: DocumentNode | undefined;
    if (formulas.length && !clean) block = node('formula', formulas.join(' '), [], pos(), { notation: 'latex' });
    else if (formulas.length) extra.unshift(...formulas.map((f) => node('formula', f, [], pos(), { notation: 'latex' })));
    if (!block && clean) {
      if (level !== undefined) block = heading(collapseSpaces(clean), level, pos());
      else if (style?.code) block = node('code', text.replace(/\s+$/, ''), [], pos());
      else block = node('paragraph', clean, [], pos());
    }
    const numbered = !!numId && numId !== '0' && !!block;
    const label = numbered ? this.numbering.next(numId, ilvl) : '';
    // Headings show Word's computed numbers ("2.1 Scope"); list items get theirs from the list rendering.
    // The number is not in the paragraph's text, so `label` says which prefix of the text it is.
    if (block?.type === 'heading' && label) {
      const number = label.replace(/[.)]$/, '');
      block.text = `${number} ${block.text}`;
      block.attributes = { label: number };
    }
    const list = numbered && block && block.type !== 'heading' ? { ilvl, ordered: this.numbering.ordered(numId, ilvl) } : undefined;
    return { block, extra, list };
  }

  private table(tbl: Element): DocumentNode {
    const table = node('table');
    for (const tr of kids(tbl).filter((k) => k.name === 'w:tr')) {
      const row = node('row');
      const header = !!find(tr, 'w:tblHeader');
      for (const tc of kids(tr).filter((k) => k.name === 'w:tc' || k.name === 'w:sdt')) {
        const cellEl = tc.name === 'w:sdt' ? find(tc, 'w:tc') : tc;
        if (!cellEl) continue;
        const tcPr = child(cellEl, 'w:tcPr');
        const span = Number(val(child(tcPr, 'w:gridSpan')) ?? 1);
        const vMerge = child(tcPr, 'w:vMerge');
        const continued = !!vMerge && val(vMerge) !== 'restart';
        const blocks = continued ? [] : this.blocks(kids(cellEl).filter((k) => k.name !== 'w:tcPr'));
        const flat = flatten(blocks);
        const attributes: DocumentNode['attributes'] = {};
        if (span > 1) attributes.colSpan = span;
        if (header) attributes.header = true;
        row.children.push(node('cell', flat.text, flat.nested, flat.positions, attributes));
      }
      table.children.push(row);
    }
    return table;
  }
}

/** A table cell's text and positions: its paragraphs and list items joined, nested tables kept as children. */
function flatten(blocks: DocumentNode[]): { text: string; nested: DocumentNode[]; positions: Position[] } {
  const texts: string[] = [];
  const nested: DocumentNode[] = [];
  const positions: Position[] = [];
  const visit = (b: DocumentNode) => {
    if (b.type === 'table') nested.push(b);
    else {
      if (b.text) {
        texts.push(b.text);
        for (const q of b.positions) if (!positions.some((o) => JSON.stringify(o) === JSON.stringify(q))) positions.push(q);
      }
      b.children.forEach(visit);
    }
  };
  blocks.forEach(visit);
  return { text: texts.join(' '), nested, positions };
}

function readStyles(docs: Element[]): Map<string, StyleInfo> {
  const map = new Map<string, StyleInfo>();
  const stylesEl = docs.find((d) => d.name === 'w:styles');
  if (!stylesEl) return map;
  for (const s of kids(stylesEl).filter((k) => k.name === 'w:style')) {
    const id = s.attribs['w:styleId'];
    const name = val(child(s, 'w:name')) ?? id ?? '';
    const pPr = child(s, 'w:pPr');
    const outline = val(child(pPr, 'w:outlineLvl'));
    const m = /^heading\s*(\d)$/i.exec(name) ?? /^berschrift\s*(\d)$/i.exec(name);
    let headingLevel = m ? Number(m[1]) : outline !== undefined && Number(outline) < 9 ? Number(outline) + 1 : undefined;
    if (/^title$/i.test(name)) headingLevel = 1;
    const numPr = child(pPr, 'w:numPr');
    map.set(id, {
      name,
      headingLevel,
      code: /code|preformatted|source|verbatim/i.test(name),
      numId: val(child(numPr, 'w:numId')),
      ilvl: numPr ? Number(val(child(numPr, 'w:ilvl')) ?? 0) : undefined,
      basedOn: val(child(s, 'w:basedOn')),
    });
  }
  // Heading levels and numbering are inherited through basedOn chains.
  for (const info of map.values()) {
    let parent = info.basedOn ? map.get(info.basedOn) : undefined;
    for (let i = 0; parent && i < 10; i++, parent = parent.basedOn ? map.get(parent.basedOn) : undefined) {
      if (info.headingLevel === undefined && parent.headingLevel !== undefined) info.headingLevel = parent.headingLevel;
      if (info.numId === undefined && parent.numId !== undefined) info.numId = parent.numId;
    }
  }
  return map;
}

interface NumberingLevel {
  format: string;
  text: string;
  start: number;
}

/** Word's list and heading numbering: level formats per numId, and counters shared per abstract definition. */
export class Numbering {
  private readonly levels = new Map<string, { abstractId: string; levels: Map<number, NumberingLevel> }>();
  private readonly counters = new Map<string, number[]>();

  constructor(docs: Element[]) {
    const numberingEl = docs.find((d) => d.name === 'w:numbering');
    if (!numberingEl) return;
    const abstract = new Map<string, Map<number, NumberingLevel>>();
    for (const a of kids(numberingEl).filter((k) => k.name === 'w:abstractNum')) {
      const levels = new Map<number, NumberingLevel>();
      for (const lvl of kids(a).filter((k) => k.name === 'w:lvl')) {
        levels.set(Number(lvl.attribs['w:ilvl'] ?? 0), {
          format: val(child(lvl, 'w:numFmt')) ?? 'decimal',
          text: val(child(lvl, 'w:lvlText')) ?? '',
          start: Number(val(child(lvl, 'w:start')) ?? 1),
        });
      }
      abstract.set(a.attribs['w:abstractNumId'], levels);
    }
    for (const n of kids(numberingEl).filter((k) => k.name === 'w:num')) {
      const abstractId = val(child(n, 'w:abstractNumId')) ?? '';
      const levels = abstract.get(abstractId);
      if (levels) this.levels.set(n.attribs['w:numId'], { abstractId, levels });
    }
  }

  ordered(numId: string, ilvl: number): boolean {
    const f = this.levels.get(numId)?.levels.get(ilvl)?.format ?? 'decimal';
    return f !== 'bullet' && f !== 'none';
  }

  /** Advances the counter of (numId, ilvl) and returns the label Word would display, e.g. "2.1.". */
  next(numId: string, ilvl: number): string {
    const def = this.levels.get(numId);
    if (!def) return '';
    const counters = this.counters.get(def.abstractId) ?? [];
    for (let l = 0; l <= ilvl; l++) if (counters[l] === undefined) counters[l] = (def.levels.get(l)?.start ?? 1) - 1;
    counters[ilvl]++;
    counters.length = ilvl + 1;
    this.counters.set(def.abstractId, counters);
    const lvl = def.levels.get(ilvl);
    if (!lvl || lvl.format === 'bullet' || lvl.format === 'none') return '';
    return lvl.text.replace(/%(\d)/g, (_, d: string) =>
      formatNumber(counters[Number(d) - 1] ?? 1, def.levels.get(Number(d) - 1)?.format ?? 'decimal'),
    );
  }
}

function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      return letters(n).toLowerCase();
    case 'upperLetter':
      return letters(n);
    case 'lowerRoman':
      return roman(n).toLowerCase();
    case 'upperRoman':
      return roman(n);
    default:
      return String(n);
  }
}

const letters = (n: number): string => String.fromCharCode(65 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);

function roman(n: number): string {
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  for (const [v, s] of table) while (n >= v) ((out += s), (n -= v));
  return out;
}

/** OMML to a LaTeX-like linear form (fractions, scripts, radicals, n-ary operators, delimiters). */
export function omml(el: Element): string {
  const all = (e: Element | undefined) => (e ? kids(e).map(omml).join('') : '');
  const part = (e: Element, name: string) => all(child(e, name));
  switch (el.name) {
    case 'm:t':
      return el.children.map((t) => (t.type === 'text' ? t.data : '')).join('');
    case 'm:f':
      return `\\frac{${part(el, 'm:num')}}{${part(el, 'm:den')}}`;
    case 'm:sSup':
      return `{${part(el, 'm:e')}}^{${part(el, 'm:sup')}}`;
    case 'm:sSub':
      return `{${part(el, 'm:e')}}_{${part(el, 'm:sub')}}`;
    case 'm:sSubSup':
      return `{${part(el, 'm:e')}}_{${part(el, 'm:sub')}}^{${part(el, 'm:sup')}}`;
    case 'm:sPre':
      return `{}_{${part(el, 'm:sub')}}^{${part(el, 'm:sup')}}{${part(el, 'm:e')}}`;
    case 'm:rad': {
      const deg = part(el, 'm:deg');
      return deg ? `\\sqrt[${deg}]{${part(el, 'm:e')}}` : `\\sqrt{${part(el, 'm:e')}}`;
    }
    case 'm:nary': {
      const chr = val(child(child(el, 'm:naryPr'), 'm:chr')) ?? '∫';
      const sub = part(el, 'm:sub');
      const sup = part(el, 'm:sup');
      return `${chr}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''} ${part(el, 'm:e')}`;
    }
    case 'm:d': {
      const pr = child(el, 'm:dPr');
      const beg = val(child(pr, 'm:begChr')) ?? '(';
      const end = val(child(pr, 'm:endChr')) ?? ')';
      const sep = val(child(pr, 'm:sepChr')) ?? ',';
      return `${beg}${kids(el)
        .filter((k) => k.name === 'm:e')
        .map(omml)
        .join(sep)}${end}`;
    }
    case 'm:eqArr':
      return kids(el)
        .filter((k) => k.name === 'm:e')
        .map(omml)
        .join(' \\\\ ');
    case 'm:func':
      return `${part(el, 'm:fName')} ${part(el, 'm:e')}`;
    case 'm:limLow':
      return `${part(el, 'm:e')}_{${part(el, 'm:lim')}}`;
    case 'm:limUpp':
      return `${part(el, 'm:e')}^{${part(el, 'm:lim')}}`;
    case 'w:rPr':
    case 'm:rPr':
    case 'm:ctrlPr':
      return '';
    default:
      if (/Pr$/.test(el.name)) return '';
      return all(el);
  }
}

function coreMetadata(entries: Map<string, Buffer>): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const core = xml(entries.get('docProps/core.xml'))[0];
  if (core) {
    const get = (n: string) => {
      const e = find(core, n);
      return e ? collapseSpaces(e.children.map((t) => (t.type === 'text' ? t.data : '')).join('')) : '';
    };
    if (get('dc:title')) meta.title = get('dc:title');
    if (get('dc:creator'))
      meta.authors = get('dc:creator')
        .split(/\s*;\s*/)
        .filter(Boolean);
    if (get('dcterms:created')) meta.creationDate = get('dcterms:created');
    if (get('dcterms:modified')) meta.modificationDate = get('dcterms:modified');
    if (get('dc:language')) meta.language = get('dc:language');
  }
  const app = xml(entries.get('docProps/app.xml'))[0];
  const pages = app && find(app, 'Pages');
  if (pages) {
    const n = Number(pages.children.map((t) => (t.type === 'text' ? t.data : '')).join(''));
    if (n > 0) meta.pageCount = n;
  }
  return meta;
}

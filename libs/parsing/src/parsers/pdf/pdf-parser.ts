import { ParseError, asParseError, encrypted, limitExceeded, truncated } from '../../errors';
import type { BBox, DocumentMetadata, DocumentNode, Position } from '../../model';
import type { ParseContext, Parser, ParserResult } from '../../parser';
import { heading, node } from '../../support/nodes';
import { joinLines, recognizeOriented } from '../../support/ocr';
import { ocrParagraphs } from '../image-parser';
import { Block, Segment, TableBlock, findGutters, readingOrder, segmentsOf, tablesByColumn, union } from './layout';
import { PdfDocument, documentOptions, pdfjs } from './pdfjs';

/** Resolution at which pages without a text layer are rendered for OCR. */
const OCR_DPI = 250;
/** Fewer characters than this on a page means it has no usable text layer. */
const MIN_TEXT_CHARS = 8;

const BULLET = /^([•●○◦▪■□‣∙·◆◇►▸–—*-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])\s+\S/;
const MATH_CHARS = /[=+−×÷±≤≥≠≈∑∏∫√∞∂∇→←⇒⇔∈∉⊂⊆∪∩∀∃αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ^_{}|<>∥⊥∘·′]/gu;
const SECTION_NUMBER = /^((\d+\.)*\d+\.?|[IVX]+\.|[A-Z]\.)\s+\p{Lu}/u;

interface PageText {
  number: number;
  width: number;
  height: number;
  segments: Segment[];
  rotated: Segment[];
  ocr?: DocumentNode[];
  failed?: boolean;
}

/**
 * PDF through pdf.js: text runs with positions and font sizes become lines, paragraphs, headings
 * (larger size, or a distinct font on short numbered/isolated lines), lists, tables (aligned runs),
 * formulas (math-dense lines) and code (monospaced runs), in reading order across columns. Pages
 * without a text layer are rendered and OCR'd.
 */
export class PdfParser implements Parser {
  readonly family = 'pdf' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    checkComplete(ctx.bytes);
    const lib = pdfjs();
    const task = lib.getDocument(documentOptions(new Uint8Array(ctx.bytes)));
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (e) {
      throw pdfError(e);
    }
    try {
      if (doc.numPages > ctx.limits.maxPages) {
        throw limitExceeded(`The PDF has ${doc.numPages} pages, more than the limit of ${ctx.limits.maxPages}.`);
      }
      if (doc.numPages === 0) throw truncated('the PDF has no pages.');
      const warnings: string[] = [];
      const pages: PageText[] = [];
      let ocrPages = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        ctx.checkpoint();
        const page = await this.readPage(doc, n, lib.Util.transform);
        if (page.failed) warnings.push(`Page ${n} could not be read and was skipped.`);
        const chars = page.segments.reduce((k, s) => k + s.text.replace(/\s/g, '').length, 0);
        if (!page.failed && chars < MIN_TEXT_CHARS && ctx.limits.ocr) {
          if (ocrPages < ctx.limits.maxOcrPages) {
            page.ocr = await this.ocrPage(doc, n, ctx);
            ocrPages++;
          } else warnings.push(`Page ${n} has no text layer and was not OCR'd (limit of ${ctx.limits.maxOcrPages} OCR pages).`);
        }
        pages.push(page);
      }
      if (pages.every((p) => p.failed)) throw truncated('none of the PDF pages can be read.');
      if (ocrPages > 0) warnings.push(`${ocrPages} page(s) without a text layer were read by OCR.`);
      const root = new PdfTreeBuilder(pages).build();
      return { root, metadata: await metadataOf(doc), warnings };
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }

  private async readPage(doc: PdfDocument, n: number, transform: (a: number[], b: number[]) => number[]): Promise<PageText> {
    try {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const { segments, rotated } = segmentsOf(content.items, content.styles, viewport, transform);
      page.cleanup();
      return { number: n, width: viewport.width, height: viewport.height, segments, rotated };
    } catch (e) {
      if (ParseError.isParseError(e)) throw e;
      return { number: n, width: 0, height: 0, segments: [], rotated: [], failed: true };
    }
  }

  private async ocrPage(doc: PdfDocument, n: number, ctx: ParseContext): Promise<DocumentNode[]> {
    const page = await doc.getPage(n);
    const base = page.getViewport({ scale: 1 });
    const scale = Math.min(OCR_DPI / 72, Math.sqrt(ctx.limits.maxPixels / Math.max(1, base.width * base.height)));
    const viewport = page.getViewport({ scale });
    const { canvas, context } = doc.canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    try {
      await page.render({ canvasContext: context, viewport, canvas }).promise;
      const png = canvas.toBuffer('image/png');
      ctx.checkpoint();
      // A page's OCR that fails (on a busy machine an engine that could not start, which the next
      // call opens afresh) is tried once more before the page is given up as unreadable.
      for (let attempt = 1; ; attempt++) {
        try {
          return ocrParagraphs(await recognizeOriented(png, ctx.checkpoint), n, 1 / scale);
        } catch (e) {
          if (ParseError.isParseError(e) || attempt >= 2) throw e;
        }
      }
    } catch (e) {
      if (ParseError.isParseError(e)) throw e;
      return [];
    } finally {
      doc.canvasFactory.destroy({ canvas, context });
      page.cleanup();
    }
  }
}

/** A PDF cut short loses its cross-reference table and end-of-file marker, which live at the end. */
function checkComplete(bytes: Buffer): void {
  const tail = bytes.subarray(Math.max(0, bytes.length - 4096)).toString('latin1');
  if (!tail.includes('%%EOF') && !tail.includes('startxref')) {
    throw truncated('the PDF ends before its end-of-file marker (the download or upload was probably cut short).');
  }
}

function pdfError(e: unknown): ParseError {
  const name = (e as { name?: string })?.name ?? '';
  const msg = e instanceof Error ? e.message : String(e);
  if (name === 'PasswordException' || /password/i.test(msg)) return encrypted('PDF');
  if (name === 'InvalidPDFException') return truncated(`the PDF structure is invalid (${msg}).`);
  return asParseError(e, 'PDF');
}

async function metadataOf(doc: PdfDocument): Promise<DocumentMetadata> {
  const meta: DocumentMetadata = { pageCount: doc.numPages };
  try {
    const { info, metadata } = await doc.getMetadata();
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    const xmpTitle = str(metadata?.get('dc:title'));
    const title = str(info.Title) ?? xmpTitle;
    if (title) meta.title = title;
    const author =
      str(info.Author) ?? (Array.isArray(metadata?.get('dc:creator')) ? (metadata?.get('dc:creator') as string[]).join('; ') : undefined);
    if (author) meta.authors = author.split(/\s*[;]\s*|\s+and\s+/).filter(Boolean);
    const created = pdfDate(str(info.CreationDate));
    if (created) meta.creationDate = created;
    const modified = pdfDate(str(info.ModDate));
    if (modified) meta.modificationDate = modified;
    if (str(info.Language)) meta.language = str(info.Language);
    if (str(info.Producer)) meta.producer = str(info.Producer);
  } catch {
    // Metadata is optional; a broken info dictionary does not make the document unreadable.
  }
  return meta;
}

/** PDF date "D:YYYYMMDDHHmmSSOHH'mm'" to ISO 8601. */
export function pdfDate(s: string | undefined): string | undefined {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(s ?? '');
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', se = '00', tz, th = '00', tm = '00'] = m;
  const zone = !tz || tz.toUpperCase() === 'Z' ? 'Z' : `${tz}${th}:${tm}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${se}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

interface Paragraph {
  lines: Segment[][];
  bbox: BBox;
  size: number;
  font: string;
  mono: boolean;
}

/** Turns the text of all pages into the node tree; font statistics are taken over the whole document. */
class PdfTreeBuilder {
  private readonly bodySize: number;
  private readonly bodyFont: string;
  private readonly fontShare = new Map<string, number>();
  private readonly headingSizes: number[];

  constructor(private readonly pages: PageText[]) {
    const sizes = new Map<number, number>();
    let total = 0;
    for (const p of pages) {
      for (const s of p.segments) {
        const k = Math.round(s.size * 2) / 2;
        sizes.set(k, (sizes.get(k) ?? 0) + s.text.length);
        this.fontShare.set(s.font, (this.fontShare.get(s.font) ?? 0) + s.text.length);
        total += s.text.length;
      }
    }
    this.bodySize = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
    this.bodyFont = [...this.fontShare.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    for (const [k, v] of this.fontShare) this.fontShare.set(k, v / Math.max(1, total));
    this.headingSizes = [...sizes.keys()]
      .filter((s) => s >= this.bodySize * 1.15)
      .sort((a, b) => b - a)
      .slice(0, 5);
  }

  build(): DocumentNode {
    const root = node('document');
    for (const p of this.pages) {
      const page = node(
        'page',
        '',
        [],
        [{ type: 'BBOX', page_number: p.number, bbox: { x0: 0, y0: 0, x1: round(p.width), y1: round(p.height) } }],
        {
          width: round(p.width),
          height: round(p.height),
          ...(p.ocr ? { ocr: true } : {}),
        },
      );
      if (p.ocr) page.children.push(...p.ocr);
      else page.children.push(...this.pageBlocks(p));
      root.children.push(page);
    }
    return root;
  }

  private pageBlocks(p: PageText): DocumentNode[] {
    const gutters = findGutters(
      p.segments.map((s) => ({ ...s, kind: 'segment' as const })),
      this.bodySize,
    );
    const { tables, rest } = tablesByColumn(p.segments, gutters);
    const blocks: Block[] = [...rest.map((s) => ({ ...s, kind: 'segment' as const })), ...tables];
    const out: DocumentNode[] = [];
    for (const group of readingOrder(blocks, this.bodySize, gutters)) {
      let run: Segment[] = [];
      const flush = () => {
        if (run.length) out.push(...this.paragraphs(run).map((para) => this.classify(para, p.number)));
        run = [];
      };
      for (const b of group) {
        if (b.kind === 'table') {
          flush();
          out.push(tableNode(b, p.number));
        } else run.push(b);
      }
      flush();
    }
    if (p.rotated.length) {
      for (const para of this.paragraphs(p.rotated.sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0))) out.push(this.classify(para, p.number));
    }
    return mergeLists(out);
  }

  /** Consecutive segments (already in reading order) grouped into lines, then lines into paragraphs. */
  private paragraphs(segments: Segment[]): Paragraph[] {
    const lines: Segment[][] = [];
    for (const s of segments) {
      const line = lines[lines.length - 1];
      const last = line?.[line.length - 1];
      if (last && Math.abs(s.baseline - last.baseline) <= 0.4 * Math.min(s.size, last.size) && s.x0 >= last.x0) line.push(s);
      else lines.push([s]);
    }
    const left = Math.min(...segments.map((s) => s.x0));
    const right = Math.max(...segments.map((s) => s.x1));
    const out: Paragraph[] = [];
    let cur: Segment[][] = [];
    const flush = () => {
      if (!cur.length) return;
      const all = cur.flat();
      const size = Math.max(...all.map((s) => s.size));
      out.push({ lines: cur, bbox: union(all), size, font: dominantFont(all), mono: all.every((s) => s.mono) });
      cur = [];
    };
    for (const line of lines) {
      const prev = cur[cur.length - 1];
      if (prev && this.breaks(prev, line, left, right)) flush();
      cur.push(line);
    }
    flush();
    return out;
  }

  private breaks(prev: Segment[], line: Segment[], left: number, right: number): boolean {
    const a = prev[0];
    const b = line[0];
    const size = Math.max(a.size, b.size);
    const delta = b.baseline - a.baseline;
    if (delta < 0 || delta > 1.55 * size) return true;
    if (Math.abs(a.size - b.size) > 0.12 * size) return true;
    const aMono = prev.every((s) => s.mono);
    const bMono = line.every((s) => s.mono);
    if (aMono !== bMono) return true;
    const text = line.map((s) => s.text).join(' ');
    if (BULLET.test(text) && !aMono) return true;
    const prevText = prev.map((s) => s.text).join(' ');
    const prevEnd = prev[prev.length - 1].x1;
    const width = right - left;
    if (/[.:!?]["')\]]?$/.test(prevText) && prevEnd < right - 0.15 * width && width > 20 * size * 0.5) return true;
    if (dominantFont(prev) !== dominantFont(line) && (this.isHeadingFont(dominantFont(prev)) || this.isHeadingFont(dominantFont(line))))
      return true;
    return false;
  }

  private isHeadingFont(font: string): boolean {
    return font !== this.bodyFont && (this.fontShare.get(font) ?? 0) < 0.15;
  }

  private classify(para: Paragraph, pageNumber: number): DocumentNode {
    const text = joinLines(para.lines.map((l) => l.map((s) => s.text).join(' ')));
    const positions: Position[] = [{ type: 'BBOX', page_number: pageNumber, bbox: roundBox(para.bbox) }];
    if (para.mono && para.lines.length >= 1 && text.length > 0) {
      return node('code', para.lines.map((l) => l.map((s) => s.text).join(' ')).join('\n'), [], positions);
    }
    if (isFormula(text, para.lines.length)) return node('formula', text, [], positions, { notation: 'text' });
    const level = this.headingLevel(para, text);
    if (level) return heading(text, level, positions);
    if (BULLET.test(text)) return node('list_item', text.replace(/^([•●○◦▪■□‣∙·◆◇►▸–—*-])\s+/, ''), [], positions);
    return node('paragraph', text, [], positions);
  }

  private headingLevel(para: Paragraph, text: string): number | undefined {
    if (para.lines.length > 3 || text.length > 160 || text.length < 2 || /[.,;]$/.test(text) || !/\p{L}/u.test(text)) return undefined;
    if (para.size >= this.bodySize * 1.15) {
      const rank = this.headingSizes.findIndex((s) => para.size >= s - 0.25);
      return Math.min(6, (rank < 0 ? this.headingSizes.length : rank) + 1);
    }
    const numbered = SECTION_NUMBER.exec(text);
    if (
      Math.abs(para.size - this.bodySize) <= 0.6 &&
      this.isHeadingFont(para.font) &&
      para.lines.length <= 2 &&
      text.split(/\s+/).length <= 14
    ) {
      if (numbered) return Math.min(6, this.headingSizes.length + numbered[1].replace(/\.$/, '').split('.').length);
      if (/^\p{Lu}/u.test(text)) return Math.min(6, this.headingSizes.length + 1);
    }
    return undefined;
  }
}

function dominantFont(segments: Segment[]): string {
  const share = new Map<string, number>();
  for (const s of segments) share.set(s.font, (share.get(s.font) ?? 0) + s.text.length);
  return [...share.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** A short run dense in mathematical symbols, or an equation with a number like "(3)". */
export function isFormula(text: string, lines: number): boolean {
  if (lines > 4 || text.length > 400 || text.length < 3) return false;
  const math = text.match(MATH_CHARS)?.length ?? 0;
  const letters = text.match(/\p{L}{4,}/gu)?.length ?? 0;
  const hasRelation = /[=≤≥≈≠<>∈→⇒]/.test(text);
  if (hasRelation && math / text.length >= 0.08 && letters <= 3) return true;
  return hasRelation && /\(\d{1,3}[a-z]?\)$/.test(text.trim()) && letters <= 4;
}

function tableNode(t: TableBlock, pageNumber: number): DocumentNode {
  return node(
    'table',
    '',
    t.rows.map((r, i) =>
      node(
        'row',
        '',
        r.cells.map((c) =>
          node(
            'cell',
            c.text,
            [],
            c.bbox ? [{ type: 'BBOX', page_number: pageNumber, bbox: roundBox(c.bbox) }] : [],
            i === 0 ? { header: true } : undefined,
          ),
        ),
        [{ type: 'BBOX', page_number: pageNumber, bbox: roundBox(r.bbox) }],
      ),
    ),
    [{ type: 'BBOX', page_number: pageNumber, bbox: roundBox(t) }],
  );
}

/** Consecutive list items become one list node. */
function mergeLists(nodes: DocumentNode[]): DocumentNode[] {
  const out: DocumentNode[] = [];
  for (const n of nodes) {
    if (n.type !== 'list_item') {
      out.push(n);
      continue;
    }
    const last = out[out.length - 1];
    if (last?.type === 'list') {
      last.children.push(n);
      last.positions.push(...n.positions);
    } else out.push(node('list', '', [n], [...n.positions], { ordered: /^\(?[\divxIVXa-zA-Z]{1,4}[.)]/.test(n.text) }));
  }
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;
const roundBox = (b: BBox): BBox => ({ x0: round(b.x0), y0: round(b.y0), x1: round(b.x1), y1: round(b.y1) });

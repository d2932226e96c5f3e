import type { BBox } from '../../model';
import type { PdfViewport, TextItem, TextStyle } from './pdfjs';

/**
 * Page layout from positioned text runs: lines, segments (a run of text on one line with no wide
 * gap), tables (rows of short segments aligned in columns), columns (vertical gutters that text does
 * not cross) and reading order (bands between full-width elements, columns left to right inside).
 * All coordinates are PDF points, origin top-left.
 */

export interface Segment extends BBox {
  text: string;
  baseline: number;
  size: number;
  font: string;
  mono: boolean;
  rtl?: boolean;
}

export interface TableBlock extends BBox {
  kind: 'table';
  rows: { cells: { text: string; bbox: BBox | undefined }[]; bbox: BBox }[];
}

export type Block = (Segment & { kind: 'segment' }) | TableBlock;

type Transform = (a: number[], b: number[]) => number[];

/** Text items as segments in page coordinates; rotated text is returned apart (read after the page). */
export function segmentsOf(
  items: (TextItem | { type: string })[],
  styles: Record<string, TextStyle>,
  viewport: PdfViewport,
  transform: Transform,
): { segments: Segment[]; rotated: Segment[] } {
  const runs: Segment[] = [];
  const rotated: Segment[] = [];
  for (const it of items) {
    if (!('str' in it) || it.str.trim() === '') continue;
    const m = transform(viewport.transform, it.transform);
    const size = Math.hypot(m[2], m[3]) || Math.hypot(m[0], m[1]) || it.height || 1;
    const angle = Math.atan2(m[1], m[0]);
    const style = styles[it.fontName];
    const asc = style && style.ascent > 0.5 && style.ascent < 1.3 ? style.ascent : 0.8;
    const desc = style && style.descent < 0 && style.descent > -0.6 ? -style.descent : 0.2;
    const mono = style?.fontFamily === 'monospace';
    const scale =
      Math.hypot(it.transform[0], it.transform[1]) > 0 ? Math.hypot(m[0], m[1]) / Math.hypot(it.transform[0], it.transform[1]) : 1;
    const width = Math.abs(it.width) * (Number.isFinite(scale) && scale > 0 ? scale : 1);
    if (Math.abs(angle) > 0.1) {
      const ex = m[4] + Math.cos(angle) * width;
      const ey = m[5] + Math.sin(angle) * width;
      rotated.push({
        text: it.str,
        x0: Math.min(m[4], ex),
        x1: Math.max(m[4], ex),
        y0: Math.min(m[5], ey) - size,
        y1: Math.max(m[5], ey),
        baseline: m[5],
        size,
        font: it.fontName,
        mono,
      });
      continue;
    }
    const rtl = it.dir === 'rtl' || RTL_SCRIPT.test(it.str);
    runs.push({
      text: it.str,
      x0: m[4],
      x1: m[4] + width,
      y0: m[5] - asc * size,
      y1: m[5] + desc * size,
      baseline: m[5],
      size,
      font: it.fontName,
      mono,
      rtl,
    });
  }
  return { segments: mergeRuns(runs), rotated };
}

const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

/**
 * Runs on the same baseline joined into segments; a gap wider than about one em starts a new
 * segment. Rows written mostly right to left are read from the right.
 */
function mergeRuns(runs: Segment[]): Segment[] {
  const rows = groupRows(runs);
  const out: Segment[] = [];
  for (const row of rows) {
    const rtlChars = row.reduce((k, r) => k + (r.rtl ? r.text.length : 0), 0);
    const rtl = rtlChars * 2 > row.reduce((k, r) => k + r.text.length, 0);
    row.sort((a, b) => (rtl ? b.x1 - a.x1 : a.x0 - b.x0));
    let cur: (Segment & { chars: Map<string, number> }) | undefined;
    for (const r of row) {
      const gap = cur ? (rtl ? cur.x0 - r.x1 : r.x0 - cur.x1) : Infinity;
      const size = Math.min(r.size, cur?.size ?? r.size);
      // Fake bold draws the same text twice with a tiny offset: keep one copy.
      if (cur && gap < 0 && !rtl && cur.text.endsWith(r.text) && Math.abs(r.x1 - cur.x1) < size * 0.3) continue;
      if (cur && gap < Math.max(0.9 * size, 2.5)) {
        const needsSpace = gap > 0.15 * size && !/\s$/.test(cur.text) && !/^\s/.test(r.text);
        cur.text += (needsSpace ? ' ' : '') + r.text;
        cur.x1 = Math.max(cur.x1, r.x1);
        cur.x0 = Math.min(cur.x0, r.x0);
        cur.y0 = Math.min(cur.y0, r.y0);
        cur.y1 = Math.max(cur.y1, r.y1);
        cur.mono = cur.mono && r.mono;
        cur.chars.set(r.font, (cur.chars.get(r.font) ?? 0) + r.text.length);
        if (r.text.trim().length > 2 && r.size > cur.size) cur.size = r.size;
        continue;
      }
      if (cur) out.push(finish(cur));
      cur = { ...r, chars: new Map([[r.font, r.text.length]]) };
    }
    if (cur) out.push(finish(cur));
  }
  return out;
}

function finish(s: Segment & { chars: Map<string, number> }): Segment {
  const font = [...s.chars.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const { chars: _chars, ...rest } = s;
  return { ...rest, text: s.text.replace(/\s+/g, ' ').trim(), font };
}

/** Items grouped into visual rows by baseline (top to bottom). */
export function groupRows<T extends { baseline: number; size: number }>(items: T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.baseline - b.baseline);
  const rows: T[][] = [];
  let row: T[] = [];
  let base = -Infinity;
  let size = 0;
  for (const it of sorted) {
    if (row.length && Math.abs(it.baseline - base) <= 0.4 * Math.min(size, it.size)) {
      row.push(it);
      continue;
    }
    if (row.length) rows.push(row);
    row = [it];
    base = it.baseline;
    size = it.size;
  }
  if (row.length) rows.push(row);
  return rows;
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

/**
 * Tables are sought inside each column (and among the blocks crossing the gutters) so that rows of
 * two facing columns are never taken for one table.
 */
export function tablesByColumn(segments: Segment[], gutters: { x0: number; x1: number }[]): { tables: TableBlock[]; rest: Segment[] } {
  if (gutters.length === 0) return detectTables(segments);
  const crosses = (b: BBox) => gutters.some((g) => b.x0 < g.x0 + 1 && b.x1 > g.x1 - 1);
  const parts = new Map<number, Segment[]>();
  for (const s of segments) {
    const key = crosses(s) ? -1 : gutters.filter((g) => (s.x0 + s.x1) / 2 > g.x1).length;
    if (!parts.has(key)) parts.set(key, []);
    parts.get(key)!.push(s);
  }
  const tables: TableBlock[] = [];
  const rest: Segment[] = [];
  for (const part of parts.values()) {
    const r = detectTables(part);
    tables.push(...r.tables);
    rest.push(...r.rest);
  }
  return { tables, rest };
}

/** Rows of short, aligned segments become tables; returns the tables and the segments left over. */
export function detectTables(segments: Segment[]): { tables: TableBlock[]; rest: Segment[] } {
  if (segments.length < 6) return { tables: [], rest: segments };
  // Measured against at least a narrow page so that a small table alone on a page still counts as one.
  const textWidth = Math.max(300, Math.max(...segments.map((s) => s.x1)) - Math.min(...segments.map((s) => s.x0)));
  const rows = groupRows(segments).map((r) => r.sort((a, b) => a.x0 - b.x0));
  const isCandidate = (row: Segment[]) =>
    row.length >= 2 &&
    median(row.map((s) => s.text.length)) <= 30 &&
    row.every((s) => s.x1 - s.x0 < 0.45 * textWidth) &&
    (row.length >= 3 || row.every((s) => s.x1 - s.x0 < 0.3 * textWidth));
  const tables: TableBlock[] = [];
  const used = new Set<Segment>();
  let i = 0;
  while (i < rows.length) {
    if (!isCandidate(rows[i])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < rows.length && isCandidate(rows[j]) && rows[j][0].baseline - rows[j - 1][0].baseline < 3.2 * rows[j][0].size) j++;
    const run = rows.slice(i, j);
    const table = run.length >= 3 ? tableOf(run) : undefined;
    if (table) {
      tables.push(table);
      run.flat().forEach((s) => used.add(s));
    }
    i = j;
  }
  return { tables, rest: segments.filter((s) => !used.has(s)) };
}

function tableOf(rows: Segment[][]): TableBlock | undefined {
  const all = rows.flat();
  const size = median(all.map((s) => s.size));
  const cols = coverage(all, Math.max(0.5 * size, 3));
  if (cols.length < 2) return undefined;
  const occupied = rows.filter((r) => new Set(r.map((s) => columnOf(cols, s))).size >= 2).length;
  if (occupied / rows.length < 0.7) return undefined;
  const out: TableBlock = { kind: 'table', rows: [], ...union(all) };
  for (const r of rows) {
    const cells: { text: string; bbox: BBox | undefined; parts: Segment[] }[] = cols.map(() => ({ text: '', bbox: undefined, parts: [] }));
    for (const s of r) cells[columnOf(cols, s)].parts.push(s);
    out.rows.push({
      bbox: union(r),
      cells: cells.map((c) => ({ text: c.parts.map((p) => p.text).join(' '), bbox: c.parts.length ? union(c.parts) : undefined })),
    });
  }
  return out;
}

/** Intervals of x covered by boxes, merged across gaps narrower than `minGap`. */
function coverage(boxes: BBox[], minGap: number): { x0: number; x1: number }[] {
  const sorted = [...boxes].sort((a, b) => a.x0 - b.x0);
  const out: { x0: number; x1: number }[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && b.x0 - last.x1 < minGap) last.x1 = Math.max(last.x1, b.x1);
    else out.push({ x0: b.x0, x1: b.x1 });
  }
  return out;
}

function columnOf(cols: { x0: number; x1: number }[], b: BBox): number {
  const cx = (b.x0 + b.x1) / 2;
  let best = 0;
  for (let k = 0; k < cols.length; k++) if (cx >= cols[k].x0 - 1) best = k;
  return best;
}

export function union(boxes: BBox[]): BBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/**
 * Vertical gutters: x-intervals that (almost) no block crosses, with a real amount of text on both
 * sides over a real height. A few crossing blocks (titles, full-width captions) are allowed.
 */
export function findGutters(blocks: Block[], size: number): { x0: number; x1: number }[] {
  if (blocks.length < 6) return [];
  const minX = Math.floor(Math.min(...blocks.map((b) => b.x0)));
  const maxX = Math.ceil(Math.max(...blocks.map((b) => b.x1)));
  const yTop = Math.min(...blocks.map((b) => b.y0));
  const yBottom = Math.max(...blocks.map((b) => b.y1));
  const totalChars = blocks.reduce((k, b) => k + charsOf(b), 0);
  const n = maxX - minX + 1;
  if (n <= 0 || n > 20000) return [];
  // Blocks wider than most of the text width span columns by definition; the gutter is sought among the others.
  const narrow = blocks.filter((b) => b.x1 - b.x0 < 0.7 * (maxX - minX));
  const diff = new Int32Array(n + 1);
  for (const b of narrow) {
    diff[Math.max(0, Math.floor(b.x0) - minX)]++;
    diff[Math.min(n, Math.ceil(b.x1) - minX)]--;
  }
  // Titles, author lines and captions may cross a gutter; real text columns are crossed by few blocks.
  const allowance = Math.max(1, Math.floor(narrow.length * 0.12));
  const minWidth = Math.max(3, 0.3 * size);
  const covered = new Int32Array(n);
  for (let x = 0, c = 0; x < n; x++) covered[x] = c += diff[x];
  const gutters: { x0: number; x1: number }[] = [];
  let start = -1;
  for (let x = 0; x <= n; x++) {
    const open = x < n && covered[x] <= allowance;
    if (open && start < 0) start = x;
    if (!open && start >= 0) {
      const g = narrowest(covered, start, x, minX);
      start = -1;
      if (g.x1 - g.x0 < minWidth) continue;
      const left = blocks.filter((b) => b.x1 <= g.x0 + 1);
      const right = blocks.filter((b) => b.x0 >= g.x1 - 1);
      const need = Math.max(3, blocks.length * 0.1);
      const tall = (bs: Block[]) =>
        bs.length > 0 && Math.max(...bs.map((b) => b.y1)) - Math.min(...bs.map((b) => b.y0)) >= 0.25 * (yBottom - yTop);
      // Both sides must hold real text, not a strip of bullets, check boxes or line numbers.
      const wordy = (bs: Block[]) => {
        const chars = bs.reduce((k, b) => k + charsOf(b), 0);
        return chars >= 0.15 * totalChars && chars / bs.length >= 8;
      };
      // The text flush against the gutter must be lines of words, not check boxes or bullets.
      const near = (bs: Block[]) => {
        const chars = bs.reduce((k, b) => k + charsOf(b), 0);
        return bs.length > 0 && (chars / bs.length >= 6 || chars >= 0.05 * totalChars);
      };
      const edgeLeft = left.filter((b) => b.x1 >= Math.max(...left.map((l) => l.x1)) - 3 * size);
      const edgeRight = right.filter((b) => b.x0 <= Math.min(...right.map((r) => r.x0)) + 3 * size);
      if (
        left.length >= need &&
        right.length >= need &&
        tall(left) &&
        tall(right) &&
        wordy(left) &&
        wordy(right) &&
        near(edgeLeft) &&
        near(edgeRight)
      ) {
        gutters.push(g);
      }
    }
  }
  return gutters;
}

/** Inside a low-coverage stretch, the widest run at its lowest coverage: the gutter proper. */
function narrowest(covered: Int32Array, from: number, to: number, offset: number): { x0: number; x1: number } {
  let min = Infinity;
  for (let x = from; x < to; x++) min = Math.min(min, covered[x]);
  let best = { x0: from, x1: from };
  for (let x = from; x < to;) {
    if (covered[x] !== min) {
      x++;
      continue;
    }
    let end = x;
    while (end < to && covered[end] === min) end++;
    if (end - x > best.x1 - best.x0) best = { x0: x, x1: end };
    x = end;
  }
  return { x0: best.x0 + offset, x1: best.x1 + offset };
}

function charsOf(b: Block): number {
  return b.kind === 'table' ? b.rows.reduce((k, r) => k + r.cells.reduce((c, cell) => c + cell.text.length, 0), 0) : b.text.length;
}

/**
 * Reading order: blocks crossing a gutter split the page into bands; inside a band, columns are
 * read left to right, each top to bottom. Returns groups (one per column stretch) in order.
 */
export function readingOrder(blocks: Block[], size: number, gutters = findGutters(blocks, size)): Block[][] {
  const byPosition = (a: Block, b: Block) => {
    const ab = 'baseline' in a ? a.baseline : a.y1;
    const bb = 'baseline' in b ? b.baseline : b.y1;
    return Math.abs(ab - bb) <= 0.4 * size ? a.x0 - b.x0 : ab - bb;
  };
  if (gutters.length === 0) return [blocks.sort(byPosition)];
  const crosses = (b: Block) => gutters.some((g) => b.x0 < g.x0 + 1 && b.x1 > g.x1 - 1);
  const spanning = blocks.filter(crosses).sort(byPosition);
  const others = blocks.filter((b) => !crosses(b));
  const cy = (b: Block) => (b.y0 + b.y1) / 2;
  const groups: Block[][] = [];
  const bandOf = (b: Block) => spanning.filter((s) => cy(s) < cy(b)).length;
  const colOf = (b: Block) => gutters.filter((g) => (b.x0 + b.x1) / 2 > g.x1).length;
  for (let band = 0; band <= spanning.length; band++) {
    const inBand = others.filter((b) => bandOf(b) === band);
    for (let col = 0; col <= gutters.length; col++) {
      const group = inBand.filter((b) => colOf(b) === col).sort(byPosition);
      if (group.length) groups.push(group);
    }
    if (band < spanning.length) {
      const last = groups[groups.length - 1];
      // Consecutive spanning blocks (title lines, table rows) stay in one group.
      if (last && last.every(crosses) && inBand.length === 0) last.push(spanning[band]);
      else groups.push([spanning[band]]);
    }
  }
  return groups;
}

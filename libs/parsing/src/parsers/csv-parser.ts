import { parse as parseCsv } from 'csv-parse/sync';
import { asParseError, limitExceeded } from '../errors';
import type { DocumentNode, LinePosition } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { decodeText } from '../support/decode';
import { node } from '../support/nodes';

const CANDIDATES = [',', ';', '\t', '|'];

/** CSV: one table; every cell keeps the line and column range it was read from. */
export class CsvParser implements Parser {
  readonly family = 'csv' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    // One line ending: csv-parse miscounts lines (info.lines, raw) in CRLF files with blank lines.
    // Line numbers and columns stay those of the file, since CRLF, CR and LF each end one line.
    const text = decodeText(ctx.bytes).replace(/\r\n?/g, '\n');
    const delimiter = sniffDelimiter(text);
    let records: { record: string[]; raw: string; info: { lines: number } }[];
    try {
      records = parseCsv(text, {
        delimiter,
        bom: true,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        info: true,
        raw: true,
      }) as unknown as typeof records;
    } catch (e) {
      throw asParseError(e, 'CSV file');
    }
    ctx.checkpoint();
    const cells = records.reduce((n, r) => n + r.record.length, 0);
    if (cells > ctx.limits.maxCells) {
      throw limitExceeded(`The CSV file has ${cells} cells, more than the limit of ${ctx.limits.maxCells}.`);
    }
    const table = node('table');
    for (const [i, r] of records.entries()) {
      // A record's raw text also holds the blank lines skipped before it; info.lines is its last line.
      const raw = r.raw.replace(/\n$/, '').replace(/^\n+/, '');
      const startLine = r.info.lines - (raw.match(/\n/g)?.length ?? 0);
      const spans = fieldSpans(raw, delimiter, startLine);
      const row = node('row', '', [], spans.length ? [lineSpan(spans[0], spans[spans.length - 1])] : []);
      r.record.forEach((value, col) => {
        const pos = spans[col] ? [spans[col]] : [];
        row.children.push(node('cell', value.trim(), [], pos, i === 0 ? { header: true } : undefined));
      });
      table.children.push(row);
    }
    const root: DocumentNode = node('document', '', table.children.length ? [table] : []);
    return { root, metadata: {}, warnings: [] };
  }
}

/** The candidate that splits the first lines into the most consistent number of fields. */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 30);
  let best = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const nonZero = counts.filter((c) => c > 0);
    if (nonZero.length === 0) continue;
    const mode = modeOf(nonZero);
    const consistent = counts.filter((c) => c === mode).length / counts.length;
    const score = consistent * Math.log2(1 + mode);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === d && !quoted) n++;
  }
  return n;
}

function modeOf(xs: number[]): number {
  const freq = new Map<number, number>();
  for (const x of xs) freq.set(x, (freq.get(x) ?? 0) + 1);
  return [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
}

/** Column range of every field in a raw record, quote-aware, across the lines it spans. */
function fieldSpans(raw: string, delimiter: string, firstLine: number): LinePosition[] {
  const spans: LinePosition[] = [];
  let line = firstLine;
  let col = 0;
  let start = { line, col };
  let quoted = false;
  const close = () =>
    spans.push({
      type: 'LINE',
      line_number: start.line,
      column_index_start: start.col,
      column_index_stop: line === start.line ? col : start.col,
    });
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === delimiter) {
      close();
      col++;
      start = { line, col };
      continue;
    }
    if (ch === '\n' || (ch === '\r' && raw[i + 1] !== '\n')) {
      line++;
      col = 0;
      continue;
    }
    if (ch !== '\r') col++;
  }
  close();
  return spans;
}

function lineSpan(first: LinePosition, last: LinePosition): LinePosition {
  return {
    type: 'LINE',
    line_number: first.line_number,
    column_index_start: first.column_index_start,
    column_index_stop: last.line_number === first.line_number ? last.column_index_stop : first.column_index_stop,
  };
}

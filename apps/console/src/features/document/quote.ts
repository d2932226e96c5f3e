/**
 * The part of a node a citation quotes: the span its positions name (the columns of one line, or of
 * one Word paragraph) or else the quoted text found in the node's text, widened to whole sentences.
 * The document view marks that sentence rather than the whole paragraph; when nothing narrower is
 * found, the whole node stays the highlight. Pure: no React, no DOM.
 */
import type { DocumentTarget } from '../../router/document-links';
import { linesOf, paragraphsOf, type DocumentNode, type InlineFormula } from './tree';

/** Characters `start`..`end` (exclusive) of a node's text, in UTF-16 code units. */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * The range of `node.text` the target's columns name, when they can be mapped onto it: a text
 * paragraph is its LINE positions joined by one character (as the jobs cut citations), a Word
 * paragraph's node is its one PARAGRAPH position. Null when the target has no columns or they do
 * not fit the node.
 */
export function columnsRange(node: DocumentNode, target: DocumentTarget): TextRange | null {
  const { columnStart, columnStop } = target;
  if (columnStart === undefined || columnStop === undefined || columnStop <= columnStart) return null;
  const length = node.text.length;
  if (target.line !== undefined && target.lineEnd === undefined) {
    const lines = linesOf(node);
    const widths = lines.map((l) => l.column_index_stop - l.column_index_start);
    if (!lines.length || widths.reduce((a, b) => a + b, 0) + lines.length - 1 !== length) return null;
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.line_number === target.line && columnStart >= l.column_index_start && columnStart < l.column_index_stop) {
        return {
          start: offset + columnStart - l.column_index_start,
          end: offset + Math.min(columnStop, l.column_index_stop) - l.column_index_start,
        };
      }
      offset += widths[i] + 1;
    }
    return null;
  }
  if (target.paragraph !== undefined && target.paragraphEnd === undefined) {
    const paragraphs = paragraphsOf(node);
    const own = paragraphs[0];
    if (paragraphs.length !== 1 || own.paragraph_index !== target.paragraph) return null;
    if (own.column_index_stop - own.column_index_start !== length) return null;
    const start = columnStart - own.column_index_start;
    const end = Math.min(columnStop, own.column_index_stop) - own.column_index_start;
    return start >= 0 && end > start ? { start, end } : null;
  }
  return null;
}

/** Text folded for a loose match (case, runs of white space), with where each folded character came from. */
function fold(text: string): { folded: string; from: number[] } {
  let folded = '';
  const from: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      space = folded.length > 0;
      continue;
    }
    if (space) {
      folded += ' ';
      from.push(i - 1);
      space = false;
    }
    const lower = c.toLowerCase();
    // A character whose lower case is longer (İ) is kept as it is: offsets stay one to one.
    folded += lower.length === 1 ? lower : c;
    from.push(i);
  }
  return { folded, from };
}

/** Where `quote` is in `text`: as written, else ignoring case and how white space runs. */
export function findQuote(text: string, quote: string): TextRange | null {
  const q = quote.trim();
  if (!q) return null;
  const exact = text.indexOf(q);
  if (exact >= 0) return { start: exact, end: exact + q.length };
  const t = fold(text);
  const f = fold(q).folded;
  const at = f ? t.folded.indexOf(f) : -1;
  if (at < 0) return null;
  return { start: t.from[at], end: t.from[at + f.length - 1] + 1 };
}

/**
 * Where a quote is in `text`: the whole quote, else the values of a list answer ("a; b", or one a
 * line), from the first found to the last.
 */
export function quoteRange(text: string, quote: string): TextRange | null {
  const whole = findQuote(text, quote);
  if (whole) return whole;
  const parts = quote
    .split(/;\s+|\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return null;
  const found = parts.map((p) => findQuote(text, p)).filter((r): r is TextRange => !!r);
  if (!found.length) return null;
  return { start: Math.min(...found.map((r) => r.start)), end: Math.max(...found.map((r) => r.end)) };
}

/** Words a full stop follows without ending the sentence ("Dr. Smith", "e.g. this"). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'no',
  'nr',
  'vs',
  'fig',
  'figs',
  'eq',
  'ca',
  'approx',
  'e.g',
  'i.e',
  'etc',
  'cf',
  'pp',
  'vol',
]);
const CLOSERS = /[)\]"'”’»]/;
const LOWER = /\p{Ll}/u;
// A line ending in one of these goes on on the next line ("signed by\nAlice Martin").
const CONTINUES = /[\p{Ll},;:\-–—(&/]/u;

const nextVisible = (text: string, i: number): number => {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
};

function isAbbreviation(text: string, dot: number): boolean {
  const word = /[\p{L}.]+$/u.exec(text.slice(Math.max(0, dot - 12), dot))?.[0] ?? '';
  if (!word) return false;
  // One capital letter: an initial ("J. Smith").
  if (/^\p{Lu}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase().replace(/^\.+/, ''));
}

/**
 * Where the sentences of `text` start, ascending, 0 first: after a full stop, question or
 * exclamation mark (and any closing quote or bracket) followed by white space and no lower-case
 * letter; at a blank line; and at a line break between a line that does not read on and a line
 * that does not start in lower case (a title line, a list of lines).
 */
export function sentenceStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    let next = -1;
    if (c === '\n') {
      const after = nextVisible(text, i + 1);
      if (after < text.length) {
        const blankLine = text.slice(i + 1, after).includes('\n');
        let k = i - 1;
        while (k >= 0 && /\s/.test(text[k])) k--;
        const last = k >= 0 ? text[k] : '';
        if (blankLine || (!CONTINUES.test(last) && !LOWER.test(text[after]))) next = after;
      }
    } else if (/[.!?…。！？]/.test(c)) {
      let j = i + 1;
      while (j < text.length && CLOSERS.test(text[j])) j++;
      if (j < text.length && /\s/.test(text[j])) {
        const after = nextVisible(text, j);
        if (after < text.length && !LOWER.test(text[after]) && !(c === '.' && isAbbreviation(text, i))) next = after;
      }
    }
    if (next > starts[starts.length - 1]) starts.push(next);
  }
  return starts;
}

/** `range` widened to the sentences it touches, without the white space around them. */
export function sentenceRange(text: string, range: TextRange): TextRange {
  const starts = sentenceStarts(text);
  const from = Math.max(0, Math.min(range.start, text.length));
  const to = Math.max(from + 1, Math.min(range.end, text.length));
  let start = 0;
  for (const s of starts) if (s <= from) start = s;
  let end = text.length;
  for (const s of starts)
    if (s >= to && s > start) {
      end = s;
      break;
    }
  while (end > start && /\s/.test(text[end - 1])) end--;
  while (start < end && /\s/.test(text[start])) start++;
  return { start, end };
}

/**
 * The sentence (or sentences) of `node` a target cites: from its columns, else from its quote;
 * null when neither narrows the node down (nothing found, or the sentence is the whole text), and
 * the whole node is then what is cited.
 */
export function citedSentence(node: DocumentNode, target: DocumentTarget): TextRange | null {
  const text = node.text;
  const whole = sentenceRange(text, { start: 0, end: text.length });
  if (whole.end <= whole.start) return null;
  const covers = (r: TextRange) => r.start <= whole.start && r.end >= whole.end;
  let found = columnsRange(node, target);
  if (found && covers(found)) found = null;
  if (!found && target.quote) found = quoteRange(text, target.quote);
  if (!found) return null;
  const sentence = sentenceRange(text, found);
  return covers(sentence) ? null : sentence;
}

/** A piece of a node's text as rendered: plain text or a formula, inside the mark or not. */
export type MarkedRun = ({ text: string } | InlineFormula) & { marked: boolean };

/** A node's runs (tree.ts textRuns) cut where `range` starts and ends, each piece saying whether it is inside. */
export function markRuns(runs: ReadonlyArray<{ text: string } | InlineFormula>, range: TextRange | null): MarkedRun[] {
  const out: MarkedRun[] = [];
  let at = 0;
  for (const run of runs) {
    if ('latex' in run) {
      out.push({ ...run, marked: !!range && run.start >= range.start && run.end <= range.end });
      at = run.end;
      continue;
    }
    const start = at;
    const end = at + run.text.length;
    at = end;
    if (!range || range.end <= start || range.start >= end) {
      out.push({ text: run.text, marked: false });
      continue;
    }
    const cutA = Math.max(range.start, start) - start;
    const cutB = Math.min(range.end, end) - start;
    if (cutA > 0) out.push({ text: run.text.slice(0, cutA), marked: false });
    out.push({ text: run.text.slice(cutA, cutB), marked: true });
    if (cutB < run.text.length) out.push({ text: run.text.slice(cutB), marked: false });
  }
  return out;
}

import type { FormulaResult } from './formula';
import { fromLatex, MAX_FORMULA_LENGTH } from './formulas';

/** A formula found in text: where it is (UTF-16 offsets, delimiters included) and what it reads as. */
export type FoundFormula = FormulaResult & {
  start: number;
  end: number;
  /** The text between start and end, delimiters included. */
  raw: string;
};

const MATH_ENVIRONMENTS = [
  'equation',
  'equation*',
  'align',
  'align*',
  'gather',
  'gather*',
  'multline',
  'multline*',
  'eqnarray',
  'eqnarray*',
  'displaymath',
  'math',
];

/**
 * LaTeX formulas in plain text (a .txt, a Markdown or LaTeX source, text extracted from a page):
 * $...$, $$...$$, \(...\), \[...\] and the equation environments. This only finds delimiters — the
 * text around formulas is not LaTeX, so it is not parsed as LaTeX — and each formula is then read
 * by fromLatex. A single $ follows Pandoc's rule, so that prices are not formulas: the opening $ is
 * followed by a non-space, the closing $ preceded by a non-space and not followed by a digit, and a
 * blank line ends the search, and content with two words in a row is prose between two prices
 * ($10, or US$ 5). A backslash escapes a dollar (\$).
 */
export function findFormulas(text: string): FoundFormula[] {
  const found: FoundFormula[] = [];
  let i = 0;
  while (i < text.length) {
    const span = spanAt(text, i);
    if (span) {
      const raw = text.slice(i, span.end);
      found.push({ ...fromLatex(raw), start: i, end: span.end, raw });
      i = span.end;
    } else {
      i += text[i] === '\\' ? 2 : 1;
    }
  }
  return found;
}

function spanAt(text: string, i: number): { end: number } | undefined {
  if (text.startsWith('$$', i)) return closing(text, i + 2, '$$');
  if (text[i] === '$') return inlineDollar(text, i);
  if (text.startsWith('\\(', i)) return closing(text, i + 2, '\\)');
  if (text.startsWith('\\[', i)) return closing(text, i + 2, '\\]');
  if (text.startsWith('\\begin{', i)) {
    const env = /^\\begin\{([a-z]+\*?)\}/.exec(text.slice(i, i + 30));
    if (env && MATH_ENVIRONMENTS.includes(env[1])) return closing(text, i + env[0].length, `\\end{${env[1]}}`);
  }
  return undefined;
}

/** The end of the first unescaped `close` after `from`, within reach. */
function closing(text: string, from: number, close: string): { end: number } | undefined {
  const limit = Math.min(text.length, from + MAX_FORMULA_LENGTH);
  for (let j = from; j < limit; j++) {
    if (text[j] === '\\' && !close.startsWith('\\')) {
      j++;
      continue;
    }
    if (text.startsWith(close, j) && !escaped(text, j)) return { end: j + close.length };
  }
  return undefined;
}

function inlineDollar(text: string, i: number): { end: number } | undefined {
  if (!text[i + 1] || /\s/.test(text[i + 1])) return undefined;
  const limit = Math.min(text.length, i + 1 + MAX_FORMULA_LENGTH);
  for (let j = i + 1; j < limit; j++) {
    const c = text[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '\n' && /^\n[ \t]*\n/.test(text.slice(j))) return undefined;
    if (c === '$') {
      if (/\s/.test(text[j - 1]) || /\d/.test(text[j + 1] ?? '') || looksLikeProse(text.slice(i + 1, j))) return undefined;
      return { end: j + 1 };
    }
  }
  return undefined;
}

/**
 * Two words in a row, outside \text{...} and commands: prose between two prices ($10, or US$),
 * not math, where letters are single variables or command names.
 */
function looksLikeProse(content: string): boolean {
  const bare = content.replace(/\\(text|textrm|mathrm|mbox|operatorname)\s*\{[^}]*\}/g, ' ').replace(/\\[A-Za-z]+/g, ' ');
  return /(^|[^A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}([^A-Za-z]|$)/.test(bare);
}

/** Preceded by an odd number of backslashes. */
function escaped(text: string, j: number): boolean {
  let n = 0;
  for (let k = j - 1; k >= 0 && text[k] === '\\'; k--) n++;
  return n % 2 === 1;
}

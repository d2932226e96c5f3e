import type { Citation, ReaderPassage } from '../reader';
import type { LlmCitationOutput } from './answer-schema';

/**
 * Quotes a model gives are checked against the passages it was given, and turned into character
 * spans of the passage text. Models reflow whitespace and straighten or curl quotation marks, so a
 * quote matches when it occurs after both sides are folded: every run of whitespace one space,
 * typographic quotes and dashes their ASCII forms, and then, if that fails, letters lower-cased.
 * Each folding maps one character to one, so a match maps back to exact offsets.
 */

const CHAR_FOLDS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u00a0': ' ',
};

interface Folded {
  text: string;
  /** For each character of `text`, the offset in the original of the character it came from. */
  offsets: number[];
}

function fold(text: string, lowerCase: boolean): Folded {
  let out = '';
  const offsets: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    let c = CHAR_FOLDS[text[i]] ?? text[i];
    if (/\s/.test(c)) {
      if (inSpace) continue;
      inSpace = true;
      c = ' ';
    } else {
      inSpace = false;
      if (lowerCase) {
        const lower = c.toLowerCase();
        // Some letters lower-case to two code units ("İ"); keep them, so that offsets stay one to one.
        if (lower.length === 1) c = lower;
      }
    }
    out += c;
    offsets.push(i);
  }
  return { text: out, offsets };
}

/** Where `quote` occurs in `text`, ignoring differences of whitespace, quotation marks, dashes and then case. */
export function locateQuote(text: string, quote: string): { start: number; end: number } | undefined {
  const trimmed = quote.trim();
  if (!trimmed) return undefined;
  const exact = text.indexOf(trimmed);
  if (exact >= 0) return { start: exact, end: exact + trimmed.length };
  for (const lowerCase of [false, true]) {
    const haystack = fold(text, lowerCase);
    const needle = fold(trimmed, lowerCase).text;
    const at = haystack.text.indexOf(needle);
    if (at >= 0) return { start: haystack.offsets[at], end: haystack.offsets[at + needle.length - 1] + 1 };
  }
  return undefined;
}

export interface CheckedCitations {
  /** The quotes found, as spans of their passages, each once, in the order given. */
  valid: Citation[];
  /** Why each other citation was not used, in words the model (and a user) can read. */
  problems: string[];
}

const MAX_SHOWN = 80;
const shorten = (s: string) => (s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s);

/** Checks every citation against the passages given, and maps the valid ones to spans. */
export function checkCitations(citations: LlmCitationOutput[], passages: ReaderPassage[]): CheckedCitations {
  const byId = new Map(passages.map((p) => [p.id, p]));
  const valid: Citation[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of citations) {
    const passage = byId.get(c.passageId);
    if (!passage) {
      problems.push(`passage "${shorten(c.passageId)}" is not one of the passages given`);
      continue;
    }
    const span = locateQuote(passage.text, c.quote);
    if (!span) {
      problems.push(`the quote "${shorten(c.quote)}" does not occur in passage "${shorten(c.passageId)}"`);
      continue;
    }
    const key = `${passage.id}:${span.start}:${span.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push({ passageId: passage.id, ...span });
  }
  return { valid, problems };
}

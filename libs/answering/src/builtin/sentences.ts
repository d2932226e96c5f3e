/** A piece of a passage a candidate may not cross: a sentence, or a cell of a row. */
export interface Segment {
  start: number;
  end: number;
  /** Index of the sentence this segment belongs to within its passage (cells of a row share one). */
  sentence: number;
}

// Abbreviations whose period does not end a sentence.
const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof st jr sr inc ltd co corp no nos vs etc e.g i.e cf fig figs al approx dept est jan feb mar apr jun jul aug sep sept oct nov dec art sec para vol pp p ed eds u.s u.k a.m p.m'.split(
    ' ',
  ),
);

/** A label line is at most this long: a longer line ending with a colon introduces a list or a quote. */
const MAX_LABEL = 60;
const LABEL_LINE = /(?:^|\n)[^\n.!?]*[\p{L})]\s?:[ \t]*$/u;

/** Whether the line break at `at` closes a label whose value follows on the next line (not the first item of a list). */
function labelAbove(text: string, start: number, at: number, next: number): boolean {
  if (at - start > MAX_LABEL || !LABEL_LINE.test(text.slice(start, at))) return false;
  return !LIST_MARK.test(text.slice(next, next + 6));
}
const LIST_MARK = /^\s*(?:[-•*–·▪]|\d{1,2}[.)]\s|\(?[a-z][.)]\s)/;

/**
 * Sentence boundaries of a text: after . ! ? (and closing quotes or brackets) followed by a space
 * and a capital, digit or quote, unless the period closes a known abbreviation or an initial ("J.
 * Smith"); and at every line break, except after a short label line ending with a colon, whose
 * value is written on the line below it ("FOR FURTHER INFORMATION CONTACT:\nIan Smith, 202-555-0100").
 */
export function splitSentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s])) s++;
    while (e > s && /\s/.test(text[e - 1])) e--;
    if (e > s) out.push({ start: s, end: e });
  };
  const boundary = /([.!?]+["'”’)\]]*)(\s+)(?=["'“‘(\[]?[\p{Lu}\p{N}])|\n+/gu;
  for (const m of text.matchAll(boundary)) {
    if (!m[1] && labelAbove(text, start, m.index, m.index + m[0].length)) continue;
    if (m[1]?.startsWith('.')) {
      const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(start, m.index - 12), m.index))?.[1] ?? '';
      const word = before.toLowerCase();
      // An abbreviation, an initial ("J. Smith") or a dotted initialism ("Norwich City F.C. Hall of Fame").
      if (ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(before) || /^(?:\p{Lu}\.)+\p{Lu}$/u.test(before)) continue;
    }
    const end = m.index + (m[1]?.length ?? 0);
    push(end);
    start = end;
  }
  push(text.length);
  return out;
}

/** Sentences of a passage; a table row's cells (joined with " | ") are segments of one sentence. */
export function segmentPassage(text: string, nodeType: string): Segment[] {
  if (nodeType === 'row' && text.includes(' | ')) {
    const segments: Segment[] = [];
    let start = 0;
    for (const cell of text.split(' | ')) {
      const end = start + cell.length;
      if (cell.trim()) segments.push({ start, end, sentence: 0 });
      start = end + 3;
    }
    return segments;
  }
  return splitSentences(text).map((s, i) => ({ ...s, sentence: i }));
}

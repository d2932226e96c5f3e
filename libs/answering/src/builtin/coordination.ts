/**
 * The items of a coordination ("Jim Bainbridge, Hernando Bedoya and Rob Bestgen") around a span.
 * The span model was learned on single answers, so for a list question it finds one item of the
 * list, seldom all: the others are read here from the sentence's own punctuation, each with its
 * character span so that every item is cited where it stands.
 */

export interface CoordinatedItem {
  /** Character span in the text the sentence was taken from. */
  start: number;
  end: number;
  text: string;
}

type Kind = 'name' | 'phrase';

/** Words a name may hold in lower case ("Bank of America", "Ludwig van Beethoven"). */
const NAME_JOINERS = /^(?:of|and|the|de|van|von|der|da|du|la|le|for|&|al\.?|et)$/i;
/** Words that end a phrase item: what follows them says something of the list, not another item. */
const PHRASE_STOPS =
  /^(?:is|are|was|were|be|been|has|have|had|in|on|at|to|for|from|by|with|which|that|who|as|will|can|may|into|over|under|between|using|such)$/i;
const MAX_ITEM_WORDS = { name: 6, phrase: 4 } as const;
/** What separates two items: a comma or semicolon (with an optional "and"/"or"), or a bare "and"/"or"/"&". */
const SEPARATOR = /\s*(?:[,;]\s*(?:(?:and|or)\s+)?|\s(?:and|or|&)\s)\s*/giu;

interface Word {
  start: number;
  end: number;
  text: string;
}

function wordsOf(text: string, from: number, to: number): Word[] {
  const out: Word[] = [];
  const re = /\S+/gu;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const end = Math.min(m.index + m[0].length, to);
    out.push({ start: m.index, end, text: text.slice(m.index, end) });
  }
  return out;
}

const isName = (w: string) => /^[\p{Lu}\p{N}]/u.test(w) || NAME_JOINERS.test(w);
const trimPunct = (w: Word): Word => {
  const m = /^[("'“‘]*(.*?)[)"'”’.:!?]*$/su.exec(w.text);
  const inner = m?.[1] ?? w.text;
  const offset = w.text.indexOf(inner);
  return { start: w.start + offset, end: w.start + offset + inner.length, text: inner };
};

/**
 * An item of `kind` read from the words between two separators. `side` says which end of the
 * coordination it stands at: the first item may follow lead-in words ("authors are Jim Cain"), the
 * last may be followed by the rest of the sentence ("Rob Bestgen wrote it"); a middle item is whole.
 */
function itemFrom(words: Word[], kind: Kind, side: 'first' | 'middle' | 'last'): { start: number; end: number } | undefined {
  let ws = words.map(trimPunct).filter((w) => w.text);
  // "Authors: Jim Bainbridge": what a colon introduces is the list, what stands before it is not.
  let colon = words.length - 1;
  while (colon >= 0 && !words[colon].text.endsWith(':')) colon--;
  if (colon >= 0) {
    if (side !== 'first') return undefined;
    ws = words
      .slice(colon + 1)
      .map(trimPunct)
      .filter((w) => w.text);
  }
  if (kind === 'name') {
    if (side === 'first') {
      let k = ws.length;
      while (k > 0 && isName(ws[k - 1].text)) k--;
      ws = ws.slice(k);
    } else if (side === 'last') {
      const k = ws.findIndex((w) => !isName(w.text));
      if (k >= 0) ws = ws.slice(0, k);
    } else if (!ws.every((w) => isName(w.text))) return undefined;
    while (ws.length && NAME_JOINERS.test(ws[0].text)) ws = ws.slice(1);
    while (ws.length && NAME_JOINERS.test(ws[ws.length - 1].text)) ws = ws.slice(0, -1);
    if (!ws.length || !/^[\p{Lu}\p{N}]/u.test(ws[0].text)) return undefined;
  } else {
    // "types in use are the all-metal type": the first item starts after the clause's last function word.
    if (side === 'first') {
      let k = ws.length;
      while (k > 0 && !PHRASE_STOPS.test(ws[k - 1].text)) k--;
      ws = ws.slice(k);
    }
    while (ws.length && /^(?:the|a|an)$/i.test(ws[0].text)) ws = ws.slice(1);
    if (side === 'last') {
      const k = ws.findIndex((w) => PHRASE_STOPS.test(w.text));
      if (k >= 0) ws = ws.slice(0, k);
    }
    if (ws.some((w) => PHRASE_STOPS.test(w.text))) return undefined;
  }
  if (!ws.length || ws.length > MAX_ITEM_WORDS[kind]) return undefined;
  return { start: ws[0].start, end: ws[ws.length - 1].end };
}

/**
 * The coordination of the sentence [from, to) of `text` that holds the span [spanStart, spanEnd),
 * its items in order, or undefined when the span is not one item of a list of at least two.
 */
export function coordinationAround(
  text: string,
  from: number,
  to: number,
  spanStart: number,
  spanEnd: number,
  kind: Kind,
): CoordinatedItem[] | undefined {
  // Pieces between separators (a separator always holds a comma, semicolon or conjunction, never nothing).
  const pieces: { start: number; end: number }[] = [];
  let at = from;
  for (const m of text.slice(from, to).matchAll(SEPARATOR)) {
    pieces.push({ start: at, end: from + m.index });
    at = from + m.index + m[0].length;
  }
  pieces.push({ start: at, end: to });
  if (pieces.length < 2) return undefined;
  // The pieces the span stands in ("Jim Bainbridge, Hernando Bedoya" spans two) must each read as an item.
  const inPiece = (at: number) => pieces.findIndex((p) => p.start <= at && at <= p.end);
  const ownFirst = inPiece(spanStart);
  const ownLast = inPiece(spanEnd);
  if (ownFirst < 0 || ownLast < 0) return undefined;
  const read = (k: number, side: 'first' | 'middle' | 'last'): CoordinatedItem | undefined => {
    const span = itemFrom(wordsOf(text, pieces[k].start, pieces[k].end), kind, side);
    return span && { ...span, text: text.slice(span.start, span.end) };
  };
  const sideOf = (k: number) => (k === 0 ? 'first' : k === pieces.length - 1 ? 'last' : 'middle');
  const items = new Map<number, CoordinatedItem>();
  for (let k = ownFirst; k <= ownLast; k++) {
    const item = read(k, sideOf(k));
    if (!item) return undefined;
    items.set(k, item);
  }
  // The span must be the item of its piece, or it is a word inside a longer clause, not a list item.
  // An article or punctuation the item leaves out ("the all-metal type") does not count.
  const slack = (a: number, b: number) => a >= b || /^[\s\p{P}]*(?:(?:the|a|an)\s+)?$/iu.test(text.slice(b, a));
  if (!slack(items.get(ownFirst)!.start, spanStart) || !slack(spanEnd, items.get(ownLast)!.end)) return undefined;
  let first = ownFirst;
  let last = ownLast;
  // Grow to each side while the neighbour reads as a whole item; an end item may be partial.
  while (first > 0) {
    const whole = read(first - 1, 'middle');
    if (whole) {
      items.set(--first, whole);
      continue;
    }
    const partial = read(first - 1, 'first');
    if (partial) items.set(--first, partial);
    break;
  }
  while (last < pieces.length - 1) {
    const whole = read(last + 1, 'middle');
    if (whole) {
      items.set(++last, whole);
      continue;
    }
    const partial = read(last + 1, 'last');
    if (partial) items.set(++last, partial);
    break;
  }
  if (last === first) return undefined;
  return [...items.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}

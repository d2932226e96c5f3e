import type { ReaderPassage } from '../reader';
import type { AnalyzedQuestion } from './question';
import { segmentPassage } from './sentences';
import { tokenize, type Token } from './tokens';
import { RARE_IDF } from './word-idf';

/**
 * The reader's view of one sentence: its tokens, which of them match the question, and the
 * features of each token as the start or the end of an answer span. A span's score is the sum of
 * the weights of its sentence's features, its start token's, its end token's and its own
 * (spanFeatures), so the features of a token are built once for every span it bounds.
 */
export interface SentenceView {
  passageIndex: number;
  passage: ReaderPassage;
  /** Character span of the sentence in passage.text. */
  start: number;
  end: number;
  tokens: Token[];
  /** Token ranges [from, to) a span may not cross: the whole sentence, or each cell of a row. */
  segments: { from: number; to: number }[];
  matched: boolean[];
  /** Share of the question's terms found in the sentence or its headings, 0..1. */
  coverage: number;
  matchedTerms: number;
  /** Rank of the sentence among all by matched terms, 0 best (ties share a rank). */
  rank: number;
  sentenceFeatures: string[];
  startFeatures: string[][];
  endFeatures: string[][];
  /** Prefix sums of `matched`, for window counts. */
  matchedBefore: Int32Array;
  /** Nearest matched token before / after each position, or -1. */
  prevMatch: Int32Array;
  nextMatch: Int32Array;
  /** Prefix sums of the idf of matched tokens, for idf-weighted window overlap. */
  idfBefore: Float64Array;
  /** Prefix sums of the tokens that end a question bigram ("founded by"), function words included. */
  bigramBefore: Int32Array;
  /** Share of the question's idf mass matched in the sentence, 0..1. */
  idfCoverage: number;
}

export interface LatticeOptions {
  /** Sentences kept, the best by matched question terms; the rest cannot hold the answer. */
  maxSentences: number;
}

export const DEFAULT_LATTICE: LatticeOptions = { maxSentences: 12 };

/** A word as the lexical features see it: common words themselves, names and numbers by their shape. */
export function wordKey(t: Token | undefined, sentenceInitial = false): string {
  if (!t) return '#';
  if (t.shape === 'd') {
    if (/^(1\d|20)\d\d$/.test(t.text)) return 'D:year';
    return t.text.length <= 2 ? 'D:small' : 'D:num';
  }
  if ((t.shape === 'Xx' || t.shape === 'X') && !(sentenceInitial && t.stop)) return t.shape === 'X' ? 'ACRO' : 'Cap';
  return t.lower;
}

const rankBucket = (r: number) => (r < 3 ? String(r) : r < 5 ? '3-4' : r < 10 ? '5-9' : '10+');

function bigrams(stems: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < stems.length; i++) out.add(`${stems[i - 1]} ${stems[i]}`);
  return out;
}

/**
 * A sentence in capitals ("SUBJECT TO COMPLETION, DATED MAY 25, 1995", a heading or a legal
 * notice) gives every word the shape of an acronym; its words are read as if title-cased instead,
 * function words lower-case, as the learned weights know them from ordinary text.
 */
function shoutedAsTitle(tokens: Token[]): void {
  if (tokens.some((t) => t.shape === 'x' || t.shape === 'Xx') || tokens.filter((t) => t.shape === 'X').length < 3) return;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.shape === 'X') tokens[k] = { ...t, shape: t.stop ? 'x' : 'Xx' };
  }
}

interface Draft {
  passageIndex: number;
  passage: ReaderPassage;
  start: number;
  end: number;
  tokens: Token[];
  segments: { from: number; to: number }[];
  matchedTerms: number;
  coverage: number;
  bigramMatches: number;
  contextMatches: number;
  idfMatched: number;
  hasVerb: boolean;
}

function draftSentences(q: AnalyzedQuestion, passages: readonly ReaderPassage[]): Draft[] {
  const qBigrams = bigrams(q.tokens.filter((t) => !t.stop).map((t) => t.stem));
  const drafts: Draft[] = [];
  passages.forEach((passage, passageIndex) => {
    const headingStems = new Set(
      passage.headings.flatMap((h) =>
        tokenize(h)
          .filter((t) => !t.stop)
          .map((t) => t.stem),
      ),
    );
    const bySentence = new Map<number, { start: number; end: number; segs: { start: number; end: number }[] }>();
    for (const seg of segmentPassage(passage.text, passage.nodeType)) {
      const s = bySentence.get(seg.sentence) ?? { start: seg.start, end: seg.end, segs: [] };
      s.end = seg.end;
      s.segs.push(seg);
      bySentence.set(seg.sentence, s);
    }
    for (const s of bySentence.values()) {
      const tokens: Token[] = [];
      const segments: { from: number; to: number }[] = [];
      for (const seg of s.segs) {
        const from = tokens.length;
        tokens.push(...tokenize(passage.text, seg.start, seg.end));
        if (tokens.length > from) segments.push({ from, to: tokens.length });
      }
      if (!tokens.length) continue;
      shoutedAsTitle(tokens);
      const stems = new Set(tokens.filter((t) => !t.stop).map((t) => t.stem));
      let matchedTerms = 0;
      let contextMatches = 0;
      let idfMatched = 0;
      for (const term of q.terms) {
        if (stems.has(term) || headingStems.has(term)) {
          matchedTerms++;
          idfMatched += q.idf.get(term) ?? 0;
        }
      }
      for (const term of q.context) if (stems.has(term)) contextMatches++;
      const sBigrams = bigrams(tokens.filter((t) => !t.stop).map((t) => t.stem));
      let bigramMatches = 0;
      for (const b of qBigrams) if (sBigrams.has(b)) bigramMatches++;
      drafts.push({
        passageIndex,
        passage,
        start: s.start,
        end: s.end,
        tokens,
        segments,
        matchedTerms,
        coverage: q.terms.size ? matchedTerms / q.terms.size : 0,
        bigramMatches,
        contextMatches,
        idfMatched,
        hasVerb: q.verb !== '' && stems.has(q.verb),
      });
    }
  });
  return drafts;
}

function tokenFeatures(view: SentenceView, q: AnalyzedQuestion): void {
  const { tokens, matched } = view;
  const T = q.type;
  const F = q.focus;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i];
    const L = tokens[i - 1];
    const R = tokens[i + 1];
    const k = wordKey(w, i === 0);
    const kl = wordKey(L, i - 1 === 0);
    const kr = wordKey(R);
    const kl2 = wordKey(tokens[i - 2], i - 2 === 0);
    const kr2 = wordKey(tokens[i + 2]);
    const start = [
      `sw=${k}|${T}`,
      `sw=${k}`,
      `ssh=${w.shape}|${T}`,
      `slw=${kl}|${T}`,
      `slw=${kl}`,
      `sl2=${kl2}_${kl}`,
      `slm=${L ? matched[i - 1] : '#'}|${T}`,
    ];
    const end = [
      `ew=${k}|${T}`,
      `ew=${k}`,
      `esh=${w.shape}|${T}`,
      `erw=${kr}|${T}`,
      `erw=${kr}`,
      `er2=${kr}_${kr2}`,
      `erm=${R ? matched[i + 1] : '#'}|${T}`,
    ];
    // The boundary as a word pair ("of Cap" starts a name, "Cap Cap" cuts one in two), and the
    // boundary words with the finer question class ("who was", "what did").
    start.push(`sb=${kl}_${k}`, `sb=${kl}_${k}|${T}`, `sw=${k}|${q.whPhrase}`, `slw=${kl}|${q.whPhrase}`);
    end.push(`eb=${k}_${kr}`, `eb=${k}_${kr}|${T}`, `ew=${k}|${q.whPhrase}`, `erw=${kr}|${q.whPhrase}`);
    // The question's verb with the words around the span ("founded" and "by …").
    if (q.verb) {
      start.push(`slV=${q.verb}|${kl}`);
      end.push(`erV=${q.verb}|${kr}`);
    }
    if (w.shape === 'x' && w.lower.length > 4) {
      start.push(`ssuf=${w.lower.slice(-3)}|${T}`);
      end.push(`esuf=${w.lower.slice(-3)}|${T}`);
    }
    if (F) {
      start.push(`sF=${F}|${k}`, `slF=${F}|${kl}`);
      end.push(`eF=${F}|${k}`, `erF=${F}|${kr}`);
      if (R && R.stem === F) end.push(`erIsF|${T}`);
      if (w.stem === F) end.push(`eIsF|${T}`);
    }
    view.startFeatures.push(start);
    view.endFeatures.push(end);
  }
}

/** The sentences of the passages that may hold the answer, with their features. */
export function buildLattice(
  q: AnalyzedQuestion,
  passages: readonly ReaderPassage[],
  options: LatticeOptions = DEFAULT_LATTICE,
): SentenceView[] {
  const drafts = draftSentences(q, passages);
  const kept = [...drafts]
    .sort((a, b) => b.idfMatched - a.idfMatched || b.bigramMatches - a.bigramMatches || a.passageIndex - b.passageIndex)
    .slice(0, options.maxSentences);
  const distinct = [...new Set(kept.map((d) => d.matchedTerms))].sort((a, b) => b - a);
  const distinctIdf = [...new Set(kept.map((d) => d.idfMatched))].sort((a, b) => b - a);
  const bestIdf = distinctIdf[0] ?? 0;
  return kept.map((d) => {
    const n = d.tokens.length;
    const matched = d.tokens.map((t) => !t.stop && q.terms.has(t.stem));
    const matchedBefore = new Int32Array(n + 1);
    const prevMatch = new Int32Array(n).fill(-1);
    const nextMatch = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      matchedBefore[i + 1] = matchedBefore[i] + (matched[i] ? 1 : 0);
      prevMatch[i] = i > 0 ? (matched[i - 1] ? i - 1 : prevMatch[i - 1]) : -1;
    }
    for (let i = n - 2; i >= 0; i--) nextMatch[i] = matched[i + 1] ? i + 1 : nextMatch[i + 1];
    const idfBefore = new Float64Array(n + 1);
    const bigramBefore = new Int32Array(n + 1);
    let previousWord = '';
    for (let i = 0; i < n; i++) {
      const t = d.tokens[i];
      idfBefore[i + 1] = idfBefore[i] + (matched[i] ? (q.idf.get(t.stem) ?? 0) : 0);
      const ends = t.shape !== 'p' && previousWord !== '' && q.bigrams.has(`${previousWord} ${t.lower}`);
      bigramBefore[i + 1] = bigramBefore[i] + (ends ? 1 : 0);
      if (t.shape !== 'p') previousWord = t.lower;
    }
    const rank = distinct.indexOf(d.matchedTerms);
    const idfRank = distinctIdf.indexOf(d.idfMatched);
    const idfCoverage = q.idfTotal ? d.idfMatched / q.idfTotal : 0;
    const view: SentenceView = {
      ...d,
      matched,
      rank,
      sentenceFeatures: [
        `sm=${Math.min(d.matchedTerms, 6)}`,
        `sf=${Math.round(d.coverage * 4)}`,
        `sr=${Math.min(rank, 4)}`,
        `sb=${Math.min(d.bigramMatches, 3)}`,
        `pr=${rankBucket(d.passageIndex)}`,
        `ctx=${Math.min(d.contextMatches, 3)}`,
        `nt=${d.passage.nodeType}`,
        `swf=${Math.round(idfCoverage * 5)}`,
        `swr=${Math.min(idfRank, 3)}`,
        `swg=${bestIdf ? Math.round((4 * d.idfMatched) / bestIdf) : 0}`,
        `verb=${q.verb ? (d.hasVerb ? 1 : 0) : '-'}`,
      ],
      startFeatures: [],
      endFeatures: [],
      matchedBefore,
      prevMatch,
      nextMatch,
      idfBefore,
      bigramBefore,
      idfCoverage,
    };
    tokenFeatures(view, q);
    return view;
  });
}

/**
 * What of the question a sentence leaves unsaid, counting its headings (a table's header row, the
 * section title) as said: whether it names the question's focus ("how many employees"), and how
 * many of the question's rare words (names, terms of art, as rare as an unlisted word) it lacks.
 */
export function absentFrom(view: SentenceView, q: AnalyzedQuestion): { focus: boolean; rare: number } {
  const present = new Set(view.tokens.map((t) => t.stem));
  for (const h of view.passage.headings) for (const t of tokenize(h)) present.add(t.stem);
  let rare = 0;
  let total = 0;
  for (const [term, idf] of q.idf) {
    if (idf < RARE_IDF) continue;
    total++;
    if (!present.has(term)) rare++;
  }
  const focus = focusWords(q);
  return { focus: focus.length > 0 && !focus.some((w) => named(w, present)), rare: total ? rare / total : 0 };
}

/**
 * A focus word is named by its stem or by a word of the same root that the stemmer keeps apart
 * ("weight" by "weighs", "employees" by "employed"): one stem starts the other, five letters or more.
 */
function named(word: string, present: Set<string>): boolean {
  if (present.has(word)) return true;
  if (word.length < 5) return false;
  for (const p of present) {
    if (p.length >= 5 && (p.startsWith(word) || word.startsWith(p))) return true;
  }
  return false;
}

/** The focus and the content words right after it: "transfer fee" is named by "fee" as well. */
function focusWords(q: AnalyzedQuestion): string[] {
  const at = q.tokens.findIndex((t) => !t.stop && t.stem === q.focus);
  if (!q.focus || at < 0) return q.focus ? [q.focus] : [];
  const words = [q.focus];
  for (let i = at + 1; i < q.tokens.length && !q.tokens[i].stop && q.tokens[i].shape !== 'p'; i++) words.push(q.tokens[i].stem);
  return words;
}

const distBucket = (d: number) => (d <= 0 ? 'none' : d <= 4 ? String(d) : d <= 6 ? '5-6' : d <= 9 ? '7-9' : d <= 14 ? '10-14' : '15+');

/** Features of the span of tokens [i, j] (inclusive) of a sentence beyond its two ends'. */
export function spanFeatures(view: SentenceView, i: number, j: number, q: AnalyzedQuestion): string[] {
  const T = q.type;
  const { tokens } = view;
  let words = 0;
  let inQuestion = 0;
  let caps = 0;
  let digits = 0;
  let comma = false;
  let and = false;
  let open = 0;
  let stops = 0;
  let verbLike = false;
  for (let k = i; k <= j; k++) {
    const t = tokens[k];
    if (t.text === ',') comma = true;
    else if (t.lower === 'and' || t.lower === 'or') and = true;
    else if (t.text === '(') open++;
    else if (t.text === ')') open--;
    if (t.shape === 'p') continue;
    words++;
    if (t.stop) stops++;
    else if (t.shape === 'x' && /(?:ed|ing)$/.test(t.lower)) verbLike = true;
    if (q.words.has(t.lower) || (!t.stop && q.terms.has(t.stem))) inQuestion++;
    if (t.shape === 'Xx' || t.shape === 'X') caps++;
    if (t.shape === 'd') digits++;
  }
  const left = view.prevMatch[i] >= 0 ? i - view.prevMatch[i] : 0;
  const right = view.nextMatch[j] >= 0 ? view.nextMatch[j] - j : 0;
  const dist = left && right ? Math.min(left, right) : left || right;
  const dir = !left && !right ? 'N' : left && (!right || left <= right) ? 'L' : 'R';
  const lo = Math.max(0, i - 5);
  const hi = Math.min(tokens.length, j + 6);
  const winLeft = view.matchedBefore[i] - view.matchedBefore[lo];
  const winRight = view.matchedBefore[hi] - view.matchedBefore[j + 1];
  const len = j - i + 1;
  const inq = !words ? 'p' : inQuestion === 0 ? '0' : inQuestion === words ? 'all' : inQuestion * 2 < words ? 'some' : 'most';
  const f = [
    `len=${Math.min(len, 10)}|${T}`,
    `inq=${inq}|${T}`,
    `inq=${inq}`,
    `d=${distBucket(dist)}`,
    `d=${distBucket(dist)}|${T}`,
    `d=${distBucket(dist)}|${dir}|r${Math.min(view.rank, 1)}`,
    `d=${distBucket(dist)}|${dir}|${T}`,
    `d=${distBucket(dist)}|${dir}|${q.whPhrase}`,
    `wl=${Math.min(winLeft, 3)}`,
    `wr=${Math.min(winRight, 3)}`,
    `wlr=${Math.min(winLeft, 2)}${Math.min(winRight, 2)}|${T}`,
    `caps=${caps === words ? 'all' : caps ? 'some' : 'none'}|${T}`,
    `num=${digits ? 1 : 0}|${T}`,
  ];
  // idf-weighted overlap with the question in ten tokens either side, as shares of the question's idf mass.
  const W = 10;
  const total = q.idfTotal || 1;
  const idfLeft = view.idfBefore[i] - view.idfBefore[Math.max(0, i - W)];
  const idfRight = view.idfBefore[Math.min(tokens.length, j + 1 + W)] - view.idfBefore[j + 1];
  const share = (x: number, steps: number) => Math.min(steps, Math.round((steps * x) / total));
  f.push(
    `ww=${share(idfLeft + idfRight, 5)}`,
    `ww=${share(idfLeft + idfRight, 5)}|${T}`,
    `wwlr=${share(idfLeft, 3)}${share(idfRight, 3)}`,
    `wwsent=${share(idfLeft + idfRight, 4)}${Math.round(view.idfCoverage * 4)}`,
  );
  // Question bigrams ("founded by", "the capital of") just left or right of the span.
  const bl = view.bigramBefore[i] - view.bigramBefore[Math.max(0, i - 5)];
  const br = view.bigramBefore[Math.min(tokens.length, j + 6)] - view.bigramBefore[Math.min(tokens.length, j + 2)];
  f.push(`bg=${Math.min(bl, 2)}${Math.min(br, 2)}|${T}`);
  // Which question word is next to the span: the one nearest the wh-word is the likeliest anchor.
  const qdl = view.prevMatch[i] >= 0 ? Math.min(q.whDistance.get(tokens[view.prevMatch[i]].stem) ?? 9, 4) : '-';
  const qdr = view.nextMatch[j] >= 0 ? Math.min(q.whDistance.get(tokens[view.nextMatch[j]].stem) ?? 9, 4) : '-';
  f.push(`qd=${qdl}${qdr}`, `qd=${qdl}${qdr}|${dir}|${T}`);
  const sig = signature(tokens, i, j);
  f.push(`sig=${sig}|${T}`, `sig=${sig}|${q.whPhrase}`, `len=${Math.min(len, 10)}|${q.whPhrase}`);
  // What lies inside: function words, and a word that reads as a verb ("landed in Valona" names no one).
  f.push(`stops=${Math.min(stops, 2)}|${T}`, `verbish=${verbLike ? 1 : 0}|${T}`);
  if (q.focus) f.push(`sig=${sig}|F=${q.focus}`);
  // Surface paths, a parser's dependency paths made do without one: the words between the span and
  // the nearest question word beside it, with that word's path to the wh-word in the question.
  const anchor = dir === 'L' ? view.prevMatch[i] : dir === 'R' ? view.nextMatch[j] : -1;
  if (anchor >= 0) {
    const between = dir === 'L' ? tokens.slice(anchor + 1, i) : tokens.slice(j + 1, anchor);
    const sPath = between.length > 3 ? `${dir}:far` : `${dir}:${between.map((t) => wordKey(t)).join(' ')}`;
    const qPath = q.whPath.get(tokens[anchor].stem) ?? 'none';
    f.push(`pth=${sPath}|${T}`, `pth=${sPath}|${qPath}`);
  }
  // The question word on the other side too, when it is close: a span between two of them.
  const other = dir === 'L' ? view.nextMatch[j] : dir === 'R' ? view.prevMatch[i] : -1;
  if (other >= 0) {
    const between = dir === 'L' ? tokens.slice(j + 1, other) : tokens.slice(other + 1, i);
    if (between.length <= 3) {
      const side = dir === 'L' ? 'R' : 'L';
      const sPath = `${side}:${between.map((t) => wordKey(t)).join(' ')}`;
      f.push(`pth2=${sPath}|${T}`, `pth2=${sPath}|${q.whPath.get(tokens[other].stem) ?? 'none'}`);
    }
  }
  if (comma) f.push(`comma|${T}`);
  if (and) f.push(`and|${T}`);
  if (open !== 0) f.push('unbalanced');
  if (view.segments.length > 1 && view.segments.some((s) => s.from === i && s.to === j + 1)) f.push('cell');
  return f;
}

/** The shapes of a span's words, runs collapsed ("Xx-x-Xx"), at most four: a type without a tagger. */
function signature(tokens: readonly Token[], i: number, j: number): string {
  const parts: string[] = [];
  for (let k = i; k <= j && parts.length < 5; k++) {
    const t = tokens[k];
    const s = t.shape === 'p' ? t.text : t.shape === 'x' && t.stop ? 's' : t.shape;
    if (parts[parts.length - 1] !== s) parts.push(s);
  }
  return parts.length > 4 ? `${parts.slice(0, 4).join('-')}+` : parts.join('-');
}

const OPENERS = new Set(['$', '€', '£', '¥', '"', '“', '(', '#']);
const CLOSERS = new Set(['%', ')', '"', '”']);

/** Spans a STRING answer may be: within one segment, at most `maxTokens` long, not starting or ending on punctuation. */
export function* stringSpans(view: SentenceView, maxTokens: number): Generator<[number, number]> {
  const { tokens } = view;
  for (const seg of view.segments) {
    for (let i = seg.from; i < seg.to; i++) {
      if (tokens[i].shape === 'p' && !OPENERS.has(tokens[i].text)) continue;
      for (let j = i; j < seg.to && j - i < maxTokens; j++) {
        const t = tokens[j];
        if (t.shape === 'p' && !CLOSERS.has(t.text)) {
          // A sentence-internal stop or a semicolon ends every span that would cross it.
          if (t.text === ';' || t.text === '.' || t.text === ':') break;
          continue;
        }
        yield [i, j];
      }
    }
  }
}

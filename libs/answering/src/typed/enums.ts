import { foldLabel } from './text';

export interface EnumMatch {
  /** The allowed value as the caller spelled it. */
  value: string;
  /** 0..1, 1 for the same label up to case, accents and punctuation. */
  similarity: number;
}

/** Levenshtein distance, two rows; labels are short. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * How alike two labels are: the best of token overlap (Dice over words, so "Fixed price contract"
 * and "fixed-price" are close), edit-distance similarity of the folded labels (typos), and
 * containment of one label's words in the other's.
 */
export function labelSimilarity(a: string, b: string): number {
  const fa = foldLabel(a);
  const fb = foldLabel(b);
  if (!fa || !fb) return 0;
  if (fa === fb) return 1;
  const ta = new Set(fa.split(' '));
  const tb = new Set(fb.split(' '));
  const common = [...ta].filter((t) => tb.has(t)).length;
  const dice = (2 * common) / (ta.size + tb.size);
  const edit = 1 - editDistance(fa, fb) / Math.max(fa.length, fb.length);
  const contained = common === Math.min(ta.size, tb.size) ? 0.8 : 0;
  return Math.max(dice, edit, contained);
}

/** Below this, a text is not taken for an allowed value. */
export const ENUM_MIN_SIMILARITY = 0.7;

/**
 * The allowed value a text names, or null. A rejected value is never returned: when the text is
 * closer to a rejected value than to any allowed one, the answer is refused rather than moved to
 * the nearest allowed value.
 */
export function matchEnum(raw: string, enumValues: readonly string[], rejected: readonly string[] = []): EnumMatch | null {
  const rejectedFolded = new Set(rejected.map(foldLabel));
  let best: EnumMatch | null = null;
  for (const value of enumValues) {
    if (rejectedFolded.has(foldLabel(value))) continue;
    const similarity = labelSimilarity(raw, value);
    if (!best || similarity > best.similarity) best = { value, similarity };
  }
  if (!best || best.similarity < ENUM_MIN_SIMILARITY) return null;
  const closestRejected = Math.max(0, ...rejected.map((r) => labelSimilarity(raw, r)));
  return closestRejected > best.similarity ? null : best;
}

export interface EnumMention extends EnumMatch {
  start: number;
  end: number;
  text: string;
}

interface Word {
  folded: string;
  start: number;
  end: number;
}

function words(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ folded: foldLabel(m[0]), start: m.index, end: m.index + m[0].length }));
}

/**
 * Where the text names an allowed value: runs of words equal to the value's words, allowing one
 * typo per word of five letters or more and a plural "s". Rejected values are never reported.
 */
export function findEnumMentions(text: string, enumValues: readonly string[], rejected: readonly string[] = []): EnumMention[] {
  const rejectedFolded = new Set(rejected.map(foldLabel));
  const tokens = words(text);
  const mentions: EnumMention[] = [];
  for (const value of enumValues) {
    const folded = foldLabel(value);
    if (!folded || rejectedFolded.has(folded)) continue;
    const target = folded.split(' ');
    for (let i = 0; i + target.length <= tokens.length; i++) {
      let typos = 0;
      const ok = target.every((t, k) => {
        const w = tokens[i + k].folded;
        if (w === t || w === `${t}s` || `${w}s` === t) return true;
        if (t.length >= 5 && editDistance(w, t) === 1) return ++typos > 0;
        return false;
      });
      if (!ok) continue;
      const start = tokens[i].start;
      const end = tokens[i + target.length - 1].end;
      mentions.push({ value, similarity: typos ? 0.9 : 1, start, end, text: text.slice(start, end) });
    }
  }
  return mentions.sort((a, b) => a.start - b.start || b.end - a.end);
}

import type { SentenceView } from './lattice';
import { spanFeatures } from './lattice';
import type { LinearModel } from './model';
import type { AnalyzedQuestion } from './question';

/** A span of a sentence with its score; `key` groups candidates that say the same thing. */
export interface Candidate {
  view: SentenceView;
  /** First and last token, inclusive. */
  i: number;
  j: number;
  /** Character span in view.passage.text. */
  start: number;
  end: number;
  text: string;
  key: string;
  score: number;
  /** How well a typed value fits the question (plausibility.ts), 0..1; 1 for spans. */
  fit?: number;
}

/** Scores of a sentence's tokens as span starts and ends, sentence features included in the starts. */
export interface ScoredView {
  view: SentenceView;
  startScore: Float64Array;
  endScore: Float64Array;
}

export function scoreView(view: SentenceView, model: LinearModel): ScoredView {
  const n = view.tokens.length;
  const sentence = model.score(view.sentenceFeatures);
  const startScore = new Float64Array(n);
  const endScore = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    startScore[i] = sentence + model.score(view.startFeatures[i]);
    endScore[i] = model.score(view.endFeatures[i]);
  }
  return { view, startScore, endScore };
}

/** SQuAD's answer normalisation, also used to merge candidates: lower case, no punctuation or articles. */
export function answerKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A scored span without its text, which only the likeliest spans need (see `withText`). */
export function scoreSpan(
  s: ScoredView,
  i: number,
  j: number,
  q: AnalyzedQuestion,
  model: LinearModel,
  extra: readonly string[] = [],
): Candidate {
  const { view } = s;
  const score = s.startScore[i] + s.endScore[j] + model.score(spanFeatures(view, i, j, q)) + model.score(extra);
  return { view, i, j, start: view.tokens[i].start, end: view.tokens[j].end, text: '', key: '', score };
}

/** Fills in the text and key of a candidate; `key` is kept when already set (an ENUM label). */
export function withText(c: Candidate): Candidate {
  c.text = c.view.passage.text.slice(c.start, c.end);
  if (!c.key) c.key = answerKey(c.text);
  return c;
}

/** Candidates this far below the best have a probability under e^-12 of it: they cannot change the answer. */
const NEGLIGIBLE = 12;

/** Token range of a character span of the sentence, or null when it falls outside every token. */
export function tokenRange(view: SentenceView, start: number, end: number): [number, number] | null {
  const { tokens } = view;
  let i = -1;
  let j = -1;
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k].end > start && tokens[k].start < end) {
      if (i < 0) i = k;
      j = k;
    }
  }
  return i < 0 ? null : [i, j];
}

export interface Choice {
  best: Candidate;
  /** Probability of the best answer (candidates with the same key summed), 0..1. */
  probability: number;
  /** Further answers for multi-valued questions, best first, each with its probability. */
  ranked: { candidate: Candidate; probability: number }[];
}

/**
 * Softmax over all candidates, probabilities summed per answer key: an answer written in several
 * places is likelier than one written once with the same best score.
 */
export function choose(candidates: readonly Candidate[]): Choice | null {
  if (!candidates.length) return null;
  let max = -Infinity;
  for (const c of candidates) max = Math.max(max, c.score);
  let total = 0;
  const byKey = new Map<string, { candidate: Candidate; mass: number }>();
  for (const c of candidates) {
    const p = Math.exp(c.score - max);
    total += p;
    if (c.score < max - NEGLIGIBLE) continue;
    const key = withText(c).key || c.text;
    const entry = byKey.get(key);
    if (!entry) byKey.set(key, { candidate: c, mass: p });
    else {
      entry.mass += p;
      if (c.score > entry.candidate.score) entry.candidate = c;
    }
  }
  const ranked = [...byKey.values()]
    .map((e) => ({ candidate: e.candidate, probability: e.mass / total }))
    .sort((a, b) => b.probability - a.probability);
  return { best: ranked[0].candidate, probability: ranked[0].probability, ranked };
}

/** Token F1 of two answer keys (SQuAD's overlap measure); two empty keys agree. */
export function keyOverlap(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return a.length === b.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of b) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of a) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  return same ? (2 * same) / (a.length + b.length) : 0;
}

/** Answers weighed against each other by `leastRisk`, the likeliest. */
const RISK_POOL = 40;

/**
 * Minimum-risk choice: the answer with the highest expected word overlap (token F1) with the
 * answer the model believes in, each of the `RISK_POOL` likeliest answers weighted by its
 * probability. Where the model hesitates between "Nikola Tesla", "Tesla" and "the inventor Nikola
 * Tesla", it picks the span that overlaps them all instead of the single likeliest. The chosen
 * answer's probability becomes that expected overlap (at least its own probability). The ranking
 * is otherwise kept.
 */
export function leastRisk(
  ranked: readonly { candidate: Candidate; probability: number }[],
): { candidate: Candidate; probability: number }[] {
  const pool = ranked.slice(0, RISK_POOL);
  if (pool.length < 2) return [...ranked];
  const words = pool.map((r) => (r.candidate.key ? r.candidate.key.split(' ') : []));
  let best = 0;
  let bestGain = -1;
  for (let a = 0; a < pool.length; a++) {
    let gain = 0;
    for (let b = 0; b < pool.length; b++) gain += pool[b].probability * (a === b ? 1 : keyOverlap(words[a], words[b]));
    if (gain > bestGain) {
      bestGain = gain;
      best = a;
    }
  }
  const chosen = { candidate: pool[best].candidate, probability: Math.min(1, bestGain) };
  return [chosen, ...ranked.filter((_, k) => k !== best)];
}

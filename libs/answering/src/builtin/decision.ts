/**
 * Whether the reader answers: the one place that decides. Every answer, typed or not, gets a
 * confidence from its evidence, and is found exactly when no hard veto applies and the confidence
 * reaches `minConfidence`. A vetoed answer reports confidence 0, so that for any threshold above 0
 * `found` is `confidence >= threshold`, which is what a threshold calibrated on labelled answers
 * needs.
 */
export interface DecisionThresholds {
  /** Answers below this confidence are not found. */
  minConfidence: number;
  /** Hard veto: the answer's sentence (with its headings) holds less than this share of the question's terms. */
  minCoverage: number;
}

/**
 * The defaults. `minConfidence` 0.3 was chosen on the learning half of SQuAD v1.1 dev (bench/answering/run.js
 * --choose-threshold): the best utility (+1 per answer with token F1 ≥ 0.5, −1 per answer below it or
 * over another article's paragraph, 0 per withheld answer). It is meant to be recalibrated on real documents.
 */
export const DEFAULT_THRESHOLDS: DecisionThresholds = { minConfidence: 0.3, minCoverage: 0.3 };

export interface Evidence {
  /** The model's probability of the answer among all candidates, 0..1. */
  probability: number;
  /** Share of the question's terms in the answer's sentence or its headings, 0..1. */
  coverage: number;
  /** How well the value fits what is asked (plausibility.ts), 0..1. */
  fit: number;
  /** A reason no person would take this answer (a hard veto), if any. */
  veto?: string;
}

export interface Decision {
  found: boolean;
  /** Confidence as reported: 0 when vetoed. */
  confidence: number;
  /** The confidence before any veto, for the explanation. */
  raw: number;
  /** Why the answer was withheld, or '' when found. */
  reason: string;
}

/** Confidence of an extracted answer: its probability, scaled by how much of the question its sentence holds and how well it fits. */
export function confidenceOf(e: Evidence): number {
  return e.probability * (0.5 + 0.5 * Math.min(1, e.coverage)) * e.fit;
}

export function decide(e: Evidence, t: DecisionThresholds, confidence = confidenceOf(e)): Decision {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  if (e.veto) return { found: false, confidence: 0, raw: confidence, reason: e.veto };
  if (e.coverage < t.minCoverage) {
    return {
      found: false,
      confidence: 0,
      raw: confidence,
      reason: `its sentence holds ${pct(e.coverage)} of the question's words, below ${pct(t.minCoverage)}`,
    };
  }
  if (confidence < t.minConfidence) {
    return { found: false, confidence, raw: confidence, reason: `confidence ${confidence.toFixed(2)} is below ${t.minConfidence}` };
  }
  return { found: true, confidence, raw: confidence, reason: '' };
}

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
 * The defaults, calibrated on the development half of the real-document evaluation
 * (bench/documents, `node bench/documents/replay.js <dump> --min-confidence X`): the lowest
 * threshold past which withholding more answers cost more right answers than it saved wrong ones.
 * Numbers and dates get a stricter one: documents are full of numbers beside the question's words
 * (section, standard and page numbers, other periods' figures), so a typed value needs more evidence
 * than a span of text before it is trusted. `minCoverage` is a hard veto on the answer's sentence.
 */
export const DEFAULT_THRESHOLDS: DecisionThresholds = { minConfidence: 0.35, minCoverage: 0.3 };
/** The stricter threshold of INT, FLOAT and DATE answers. */
export const NUMERIC_MIN_CONFIDENCE = 0.5;

/** The default threshold of an answer type. */
export function minConfidenceFor(dataType: string): number {
  return dataType === 'INT' || dataType === 'FLOAT' || dataType === 'DATE' ? NUMERIC_MIN_CONFIDENCE : DEFAULT_THRESHOLDS.minConfidence;
}

export interface Evidence {
  /** The model's probability of the answer among all candidates, 0..1. */
  probability: number;
  /** Share of the question's terms in the answer's sentence or its headings, 0..1. */
  coverage: number;
  /** How well the value fits what is asked (plausibility.ts), 0..1. */
  fit: number;
  /** A reason no person would take this answer (a hard veto), if any. */
  veto?: string;
  /**
   * The answer is a number and neither its sentence nor its headings name what the question counts
   * or measures ("how many employees" read beside "500 customers"): a number says nothing without it.
   */
  focusAbsent?: boolean;
  /** Share of the question's rare words (names, terms of art) neither its sentence nor its headings hold, 0..1. */
  rareAbsent?: number;
}

/**
 * Confidence kept when the counted or measured thing is not named, and when all the rare question
 * words are missing (scaled by the share missing): a question about a specific entity or measure is
 * not answered by a sentence that speaks of another one, which is what most answers to questions
 * the document cannot answer look like.
 */
const FOCUS_ABSENT = 0.5;
const RARE_ABSENT = 0.6;

export interface Decision {
  found: boolean;
  /** Confidence as reported: 0 when vetoed. */
  confidence: number;
  /** The confidence before any veto, for the explanation. */
  raw: number;
  /** Why the answer was withheld, or '' when found. */
  reason: string;
}

/**
 * Confidence of an extracted answer: its probability, scaled by how much of the question its
 * sentence holds, how well it fits, and down for the asked thing or rare question words it lacks.
 */
export function confidenceOf(e: Evidence): number {
  const absent = (e.focusAbsent ? FOCUS_ABSENT : 1) * (1 - (1 - RARE_ABSENT) * (e.rareAbsent ?? 0));
  return e.probability * (0.5 + 0.5 * Math.min(1, e.coverage)) * e.fit * absent;
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

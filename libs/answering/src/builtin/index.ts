export * from './builtin-reader';
export {
  decide,
  confidenceOf,
  DEFAULT_THRESHOLDS,
  NUMERIC_MIN_CONFIDENCE,
  minConfidenceFor,
  type Decision,
  type DecisionThresholds,
  type Evidence,
} from './decision';
// The pieces the training script (bench/answering/train-reader.js) builds its examples with, so
// that learning and answering compute the same features.
export { analyzeQuestion, type AnalyzedQuestion, type QuestionType } from './question';
export { buildLattice, spanFeatures, stringSpans, wordKey, type SentenceView } from './lattice';
export { MAX_STRING_TOKENS } from './candidates';
export { answerKey } from './scoring';
export { HAND_SET_WEIGHTS, LinearModel } from './model';
export { LEARNED_WEIGHTS_INFO } from './model-weights';
export { tokenize } from './tokens';

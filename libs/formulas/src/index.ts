export * from './formula';
export { fromLatex, fromMathML, fromOMML, fromPdfRun, MAX_FORMULA_LENGTH } from './formulas';
export { findFormulas, type FoundFormula } from './find-formulas';
export { isMathRun } from './unicode-math';
export { normalizeLatex } from './latex-normalize';

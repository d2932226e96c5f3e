import { findFormulas } from '@docintel/formulas';

/** Cheap test before the real search: LaTeX in text needs a dollar or a backslash. */
const MAYBE_LATEX = /[$\\]/;

/**
 * LaTeX written inside ordinary text: $...$, $$...$$, \(...\), \[...\] or an equation environment
 * that reads as a formula (libs/formulas' findFormulas, which follows Pandoc's rule so that prices
 * such as "$5 and $10" are not formulas).
 */
export function containsLatex(text: string): boolean {
  return MAYBE_LATEX.test(text) && findFormulas(text).some((f) => f.ok);
}

/** Nodes formula_augmentation looks at: formula nodes, and nodes whose text contains LaTeX. */
export function isFormulaCandidate(node: { type: string; text?: string | null }): boolean {
  return node.type === 'formula' || containsLatex(node.text ?? '');
}

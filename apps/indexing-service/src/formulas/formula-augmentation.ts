import { findFormulas, fromLatex, fromPdfRun, type FormulaResult } from '@docintel/formulas';

/** What formula_augmentation adds to a node's attributes. */
export interface FormulaAttributes {
  /** formula nodes: the normalised LaTeX and a linear plain-text reading ("x^2 + y^2 = z^2"). */
  latex?: string;
  reading?: string;
  display?: boolean;
  /** formula nodes whose text could not be read as a formula: why. */
  formulaError?: string;
  /** other nodes: the LaTeX formulas found in their text, with UTF-16 offsets (delimiters included). */
  formulas?: Array<{ latex: string; reading: string; display: boolean; start: number; end: number }>;
}

/**
 * The formula of a formula node: LaTeX as written (`notation: latex`, from docx OMML, MathML
 * annotations, JATS tex-math), or the plain text of a math run (`notation: text`, from PDF or
 * MathML without TeX), read through libs/formulas. Without a notation both readings are tried.
 */
function readFormulaNode(text: string, notation: unknown): FormulaResult {
  if (notation === 'latex') return fromLatex(text);
  if (notation === 'text') return fromPdfRun(text);
  const latex = fromLatex(text);
  return latex.ok ? latex : fromPdfRun(text);
}

/** The attributes to merge into a node, or null when the node holds no formula. */
export function augment(node: { type: string; text: string; attributes?: Record<string, unknown> | null }): FormulaAttributes | null {
  if (node.type === 'formula') {
    const f = readFormulaNode(node.text, node.attributes?.notation);
    return f.ok ? { latex: f.latex, reading: f.text, display: f.display } : { formulaError: f.error };
  }
  const formulas = findFormulas(node.text).flatMap((f) =>
    f.ok ? [{ latex: f.latex, reading: f.text, display: f.display, start: f.start, end: f.end }] : [],
  );
  return formulas.length ? { formulas } : null;
}

/** Where a formula came from. */
export type FormulaSource = 'latex' | 'mathml' | 'omml' | 'pdf';

/** A formula in two forms: normalised LaTeX for display and reuse, linear plain text for reading and search. */
export interface Formula {
  ok: true;
  source: FormulaSource;
  /** Normalised LaTeX, without delimiters. */
  latex: string;
  /** A linear plain-text reading, e.g. "x^2 + y^2 = z^2", "(-b ± √(b^2 - 4ac))/(2a)". */
  text: string;
  /** Display (block) math rather than inline. */
  display: boolean;
}

/** Input that could not be read as a formula. Never thrown: returned, with a message a user understands. */
export interface FormulaError {
  ok: false;
  source: FormulaSource;
  error: string;
}

export type FormulaResult = Formula | FormulaError;

export function failure(source: FormulaSource, error: string): FormulaError {
  return { ok: false, source, error };
}

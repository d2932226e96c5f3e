import temml from 'temml';

/**
 * LaTeX to presentation MathML with Temml, whose parser is also our validator: it knows the
 * commands and environments of LaTeX math (AMS included) and says precisely what is wrong.
 * \href and other commands that reach outside the formula stay disabled (trust: false), and macro
 * expansion is bounded, so a hostile formula cannot loop.
 */
export function texToMathML(latex: string, display: boolean): { mathml: string } | { error: string } {
  try {
    return { mathml: temml.renderToString(latex, { displayMode: display, throwOnError: true, xml: true, trust: false, maxExpand: 1000 }) };
  } catch (err) {
    return { error: describe(err) };
  }
}

function describe(err: unknown): string {
  // Temml's own errors are ParseErrors; anything else is a parser crash on input it did not expect.
  if (!(err instanceof Error) || err.name !== 'ParseError') return 'invalid LaTeX: it could not be parsed';
  const message = err.message;
  // Temml underlines the offending characters with combining low lines; keep the words only.
  const first = message
    .replace(/^(Temml|KaTeX)?\s*parse error:\s*/i, '')
    .split('\n')[0]
    .replace(/\u0332/g, '')
    .trim()
    .replace(/:$/, '');
  return first || 'invalid LaTeX';
}

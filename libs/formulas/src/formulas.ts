import { XMLSerializer, type Element } from '@xmldom/xmldom';
import { MathMLToLaTeX } from 'mathml-to-latex';
import { failure, type Formula, type FormulaResult, type FormulaSource } from './formula';
import { commandifyFunctionNames, normalizeLatex } from './latex-normalize';
import { mathmlToText } from './mathml-text';
import { ommlToMathML } from './omml-to-mathml';
import { texToMathML } from './tex-to-mathml';
import { unicodeToLatex } from './unicode-math';
import { findElement, OMML_NS, parseXml } from './xml';

/** Formulas longer than this are refused: they are not formulas but misdetected text or an attack. */
export const MAX_FORMULA_LENGTH = 20_000;

const DELIMITED = [
  { open: '$$', close: '$$', display: true },
  { open: '\\[', close: '\\]', display: true },
  { open: '\\(', close: '\\)', display: false },
  { open: '$', close: '$', display: false },
];
/** Environments that only say "this is a displayed equation": the formula is their content. */
const EQUATION_ENV = /^\\begin\{(equation\*?|displaymath|math)\}([\s\S]*)\\end\{\1\}$/;
/** Environments that must stay, in display mode. */
const DISPLAY_ENV = /^\\begin\{(align|alignat|gather|multline|flalign|eqnarray)\*?\}/;

/** A LaTeX formula, with or without its delimiters ($...$, \[...\], an equation environment). */
export function fromLatex(latex: string, options: { display?: boolean } = {}): FormulaResult {
  return guard('latex', latex, () => {
    let body = latex.trim();
    let display = options.display ?? false;
    for (const d of DELIMITED) {
      if (body.length >= d.open.length + d.close.length && body.startsWith(d.open) && body.endsWith(d.close)) {
        body = body.slice(d.open.length, body.length - d.close.length).trim();
        display = d.display;
        break;
      }
    }
    const env = EQUATION_ENV.exec(body);
    if (env) {
      body = env[2].trim();
      display = env[1] !== 'math';
    }
    if (DISPLAY_ENV.test(body)) display = true;
    return fromTex('latex', body, display);
  });
}

/** A MathML <math> element, e.g. from HTML; HTML entities (&alpha;, &nbsp;) are understood. */
export function fromMathML(xml: string): FormulaResult {
  return guard('mathml', xml, () => {
    let parsed = parseXml(xml);
    if ('error' in parsed && /entity/i.test(parsed.error)) parsed = parseXml(xml, 'text/html');
    if ('error' in parsed) return failure('mathml', `not well-formed MathML: ${parsed.error}`);
    const math = findElement(parsed.doc.documentElement!, 'math');
    if (!math) return failure('mathml', 'no <math> element');
    return fromMathElement('mathml', math, math.getAttribute('display') === 'block');
  });
}

/** Office Math: an <m:oMath> or <m:oMathPara> element of a docx (document.xml or a fragment of it). */
export function fromOMML(xml: string): FormulaResult {
  return guard('omml', xml, () => {
    const parsed = parseXml(xml);
    if ('error' in parsed) return failure('omml', `not well-formed OMML: ${parsed.error}`);
    const root = parsed.doc.documentElement!;
    const math = findOmml(root, 'oMathPara') ?? findOmml(root, 'oMath');
    if (!math) return failure('omml', 'no <m:oMath> element');
    const converted = parseXml(ommlToMathML(math));
    if ('error' in converted) return failure('omml', `could not convert OMML: ${converted.error}`);
    return fromMathElement('omml', converted.doc.documentElement!, math.localName === 'oMathPara');
  });
}

/**
 * A run of PDF text set in a math font or made of math symbols (see isMathRun), e.g. "x² + y² = z²"
 * or "∑ᵢ aᵢ ≤ √n". The font name lets Symbol-font letters be read as the Greek they stand for.
 */
export function fromPdfRun(text: string, fontName?: string): FormulaResult {
  return guard('pdf', text, () => fromTex('pdf', commandifyFunctionNames(unicodeToLatex(text, fontName)), false));
}

function fromTex(source: FormulaSource, body: string, display: boolean): FormulaResult {
  if (!body) return failure(source, 'empty formula');
  const checked = texToMathML(body, display);
  if ('error' in checked) return failure(source, `invalid LaTeX: ${checked.error.replace(/^invalid LaTeX: /, '')}`);
  let latex = normalizeLatex(body);
  let mathml = texToMathML(latex, display);
  if ('error' in mathml) {
    // The normaliser must never break a formula that parses; if it ever does, keep the input.
    latex = body.replace(/\s+/g, ' ');
    mathml = checked;
  }
  const parsed = parseXml(mathml.mathml);
  if ('error' in parsed) return failure(source, `could not read the formula: ${parsed.error}`);
  return formula(source, latex, mathmlToText(parsed.doc.documentElement!), display);
}

function fromMathElement(source: FormulaSource, math: Element, display: boolean): FormulaResult {
  const text = mathmlToText(math);
  if (!text) return failure(source, 'empty formula');
  const converted = MathMLToLaTeX.convert(new XMLSerializer().serializeToString(math));
  const latex = converted.trim() ? normalizeLatex(commandifyFunctionNames(converted)) : '';
  if (!latex) return failure(source, 'the formula has no content that LaTeX can express');
  return formula(source, latex, text, display);
}

function formula(source: FormulaSource, latex: string, text: string, display: boolean): Formula {
  return { ok: true, source, latex, text, display };
}

function findOmml(root: Element, name: string): Element | undefined {
  const found = findElement(root, name);
  return found && found.namespaceURI === OMML_NS ? found : undefined;
}

/** The contract: never throw, whatever the input. */
function guard(source: FormulaSource, input: string, convert: () => FormulaResult): FormulaResult {
  if (typeof input !== 'string') return failure(source, 'the formula must be a string');
  if (input.length > MAX_FORMULA_LENGTH) return failure(source, `the formula is longer than ${MAX_FORMULA_LENGTH} characters`);
  try {
    return convert();
  } catch (err) {
    return failure(source, `could not convert the formula: ${(err as Error).message ?? String(err)}`);
  }
}

import { fromLatex, fromMathML, fromOMML, fromPdfRun, isMathRun, MAX_FORMULA_LENGTH } from './index';
import { binomialNoBar, paragraphWithLimit, quadraticFormula, rotationMatrix, sumOfSquares } from './fixtures/omml';

describe('fromLatex', () => {
  it.each([
    [
      'the quadratic formula',
      'x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}',
      'x = \\frac{-b \\pm \\sqrt{b^{2} - 4ac}}{2a}',
      'x = (-b ± √(b^2 - 4ac))/(2a)',
    ],
    ['a sum', '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}', '\\sum_{i = 1}^{n} i = \\frac{n(n + 1)}{2}', '∑_(i = 1)^n i = (n(n + 1))/2'],
    [
      'Greek letters and synonyms',
      '\\alpha+\\beta \\le \\Gamma \\ne \\omega',
      '\\alpha + \\beta \\leq \\Gamma \\neq \\omega',
      'α + β ≤ Γ ≠ ω',
    ],
    ['a matrix', '\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}', '\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}', '(a, b; c, d)'],
    [
      'the Gaussian integral',
      '\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}',
      '\\int_{0}^{\\infty} e^{-x^{2}}\\,dx = \\frac{\\sqrt{\\pi}}{2}',
      '∫_0^∞ e^(-x^2) dx = (√π)/2',
    ],
    ['a limit', '\\lim_{x\\to 0} \\frac{\\sin x}{x}=1', '\\lim_{x \\rightarrow 0} \\frac{\\sin x}{x} = 1', 'lim_(x → 0) (sin x)/x = 1'],
    ['\\left and \\right kept', '\\left( \\frac{a}{b} \\right)^2', '\\left(\\frac{a}{b}\\right)^{2}', '(a/b)^2'],
    [
      'cases',
      'f(x)=\\begin{cases} 1 & x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}',
      'f(x) = \\begin{cases} 1 & x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}',
      'f(x) = {1, x > 0; 0, otherwise}',
    ],
    ['the TeX primitive \\over', '{a+b \\over 2}', '\\frac{a + b}{2}', '(a + b)/2'],
    ["Euler's identity, with a unary minus", 'e^{i\\pi} = -1', 'e^{i\\pi} = -1', 'e^(iπ) = -1'],
    ['bold vectors and number sets', '\\mathbf{v} \\in \\mathbb{R}^n', '\\mathbf{v} \\in \\mathbb{R}^{n}', 'v ∈ ℝ^n'],
  ])('%s', (_label, input, latex, text) => {
    expect(fromLatex(input)).toEqual({ ok: true, source: 'latex', latex, text, display: false });
  });

  it('takes the delimiters and equation environments off and notes display math', () => {
    expect(fromLatex('$$E = mc^2$$')).toMatchObject({ ok: true, latex: 'E = mc^{2}', text: 'E = mc^2', display: true });
    expect(fromLatex('\\(a_i\\)')).toMatchObject({ ok: true, latex: 'a_{i}', display: false });
    expect(fromLatex('\\begin{equation}\\label{eq:pythagoras} a^2 + b^2 = c^2 \\end{equation}')).toMatchObject({
      ok: true,
      latex: 'a^{2} + b^{2} = c^{2}',
      text: 'a^2 + b^2 = c^2',
      display: true,
    });
    expect(fromLatex('\\begin{align} a &= b + c \\\\ d &= e \\end{align}')).toMatchObject({
      ok: true,
      display: true,
      text: 'a = b + c; d = e',
    });
  });

  it('gives the same normalised LaTeX for differently written forms of one formula', () => {
    const forms = ['\\frac{1}{2}\\le x', '\\dfrac12 \\leq x', '{1 \\over 2}\\le   x', '\\tfrac{1}{2} \\le x'];
    const latex = new Set(forms.map((f) => (fromLatex(f) as { latex: string }).latex));
    expect([...latex]).toEqual(['\\frac{1}{2} \\leq x']);
  });

  it.each([
    [
      'an unclosed brace',
      '\\frac{a}{b',
      "invalid LaTeX: Unexpected end of input in a macro argument, expected '}' at end of input: \\frac{a}{b",
    ],
    ['an unknown command', '\\foo{x}', 'invalid LaTeX: Unsupported function name: \\foo at position 1'],
    ['a stray closing brace', 'x}', "invalid LaTeX: Expected 'EOF', got '}' at position 2"],
    ['a double superscript sign', 'a^^b', 'invalid LaTeX: it could not be parsed'],
    ['an unfinished matrix', '\\begin{pmatrix} a', 'invalid LaTeX: Expected & or \\\\ or \\cr or \\end at end of input: …egin{pmatrix} a'],
    ['nothing', '  ', 'empty formula'],
    ['empty delimiters', '$$$$', 'empty formula'],
  ])('returns an error for %s instead of throwing', (_label, input, error) => {
    expect(fromLatex(input)).toEqual({ ok: false, source: 'latex', error });
  });

  it('refuses input that is too long to be a formula, and non-strings', () => {
    expect(fromLatex('x+'.repeat(MAX_FORMULA_LENGTH))).toEqual({
      ok: false,
      source: 'latex',
      error: `the formula is longer than ${MAX_FORMULA_LENGTH} characters`,
    });
    expect(fromLatex(undefined as unknown as string)).toEqual({ ok: false, source: 'latex', error: 'the formula must be a string' });
  });

  it('does not run commands that reach outside the formula', () => {
    expect(fromLatex('\\href{https://example.com}{x}')).toEqual({
      ok: false,
      source: 'latex',
      error: 'invalid LaTeX: Unsupported function name: \\href at position 1',
    });
    expect(fromLatex('\\def\\a{\\a\\a}\\a')).toMatchObject({ ok: false, error: expect.stringContaining('invalid LaTeX') as string });
  });
});

describe('fromMathML', () => {
  it('reads MathML from HTML, with a namespace or without one', () => {
    const pythagoras =
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><msup><mi>y</mi><mn>2</mn></msup><mo>=</mo><msup><mi>z</mi><mn>2</mn></msup></mrow></math>';
    expect(fromMathML(pythagoras)).toEqual({
      ok: true,
      source: 'mathml',
      latex: 'x^{2} + y^{2} = z^{2}',
      text: 'x^2 + y^2 = z^2',
      display: false,
    });
    const quadratic =
      '<math display="block"><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>';
    expect(fromMathML(quadratic)).toEqual({
      ok: true,
      source: 'mathml',
      latex: 'x = \\frac{-b \\pm \\sqrt{b^{2} - 4ac}}{2a}',
      text: 'x = (-b ± √(b^2 - 4ac))/(2a)',
      display: true,
    });
  });

  it('understands HTML entities and operator names', () => {
    expect(fromMathML('<math><mi>sin</mi><mo>&ApplyFunction;</mo><mi>&theta;</mi><mo>&le;</mo><mn>1</mn></math>')).toMatchObject({
      ok: true,
      latex: '\\sin \\theta \\leq 1',
      text: 'sin θ ≤ 1',
    });
  });

  it('reads sums, matrices and fenced groups', () => {
    const sum =
      '<math><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>0</mn></mrow><mi>∞</mi></munderover><mfrac><msup><mi>x</mi><mi>k</mi></msup><mrow><mi>k</mi><mo>!</mo></mrow></mfrac></math>';
    expect(fromMathML(sum)).toMatchObject({ ok: true, latex: '\\sum_{k = 0}^{\\infty} \\frac{x^{k}}{k!}', text: '∑_(k = 0)^∞ x^k/(k!)' });
    const matrix =
      '<math><mrow><mo>[</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable><mo>]</mo></mrow></math>';
    expect(fromMathML(matrix)).toMatchObject({ ok: true, latex: '\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}', text: '[1, 0; 0, 1]' });
    expect(fromMathML('<math><mfenced><mi>a</mi><mi>b</mi></mfenced></math>')).toMatchObject({ ok: true, text: '(a, b)' });
  });

  it.each([
    ['mismatched tags', '<math><msub><mi>x</mi></math>', 'not well-formed MathML: Opening and ending tag mismatch: "msub" != "math"'],
    ['no math element', '<p>no math here</p>', 'no <math> element'],
    ['an empty formula', '<math></math>', 'empty formula'],
    ['no XML at all', 'x^2', expect.stringMatching(/^not well-formed MathML: /)],
  ])('returns an error for %s', (_label, input, error) => {
    expect(fromMathML(input)).toEqual({ ok: false, source: 'mathml', error });
  });
});

describe('fromOMML', () => {
  it('reads the quadratic formula as Word writes it', () => {
    expect(fromOMML(quadraticFormula)).toEqual({
      ok: true,
      source: 'omml',
      latex: 'x = \\frac{-b \\pm \\sqrt{b^{2} - 4ac}}{2a}',
      text: 'x = (-b ± √(b^2 - 4ac))/(2a)',
      display: true,
    });
  });

  it('reads n-ary sums, matrices in brackets, functions, limits, accents and bar-less fractions', () => {
    expect(fromOMML(sumOfSquares)).toMatchObject({
      ok: true,
      latex: '\\sum_{i = 1}^{n} x_{i}^{2}',
      text: '∑_(i = 1)^n x_i^2',
      display: false,
    });
    expect(fromOMML(rotationMatrix)).toMatchObject({
      ok: true,
      latex: 'R = \\begin{bmatrix} \\cos \\theta & -\\sin \\theta \\\\ \\sin \\theta & \\cos \\theta \\end{bmatrix}',
      text: 'R = [cos θ, -sin θ; sin θ, cos θ]',
    });
    expect(fromOMML(paragraphWithLimit)).toMatchObject({
      ok: true,
      latex: '\\lim_{n \\rightarrow \\infty}\\left(1 + \\frac{1}{n}\\right)^{n} = \\hat{e}',
      text: 'lim_(n → ∞) (1 + 1/n)^n = ê',
    });
    expect(fromOMML(binomialNoBar)).toMatchObject({ ok: true, text: '(n¦k)' });
  });

  it('reads a fragment whose m: prefix is not declared, as cut out of document.xml', () => {
    expect(
      fromOMML('<m:oMath><m:sSub><m:e><m:r><m:t>a</m:t></m:r></m:e><m:sub><m:r><m:t>n</m:t></m:r></m:sub></m:sSub></m:oMath>'),
    ).toMatchObject({
      ok: true,
      latex: 'a_{n}',
      text: 'a_n',
    });
  });

  it.each([
    ['broken XML', '<m:oMath><m:r><m:t>x</m:t></m:oMath>', expect.stringMatching(/^not well-formed OMML: /)],
    [
      'no oMath element',
      '<w:p xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:r><w:t>text</w:t></w:r></w:p>',
      'no <m:oMath> element',
    ],
    ['an empty formula', '<m:oMath></m:oMath>', 'empty formula'],
  ])('returns an error for %s', (_label, input, error) => {
    expect(fromOMML(input)).toEqual({ ok: false, source: 'omml', error });
  });
});

describe('fromPdfRun', () => {
  it.each([
    ['superscript digits', 'x² + y² = z²', undefined, 'x^{2} + y^{2} = z^{2}', 'x^2 + y^2 = z^2'],
    ['subscripts, a sum and a root', '∑ᵢ aᵢ ≤ √n', undefined, '\\sum_{i} a_{i} \\leq \\sqrt{n}', '∑_i a_i ≤ √n'],
    [
      'function names and Greek letters',
      'sin²θ + cos²θ = 1',
      undefined,
      '\\sin^{2} \\theta + \\cos^{2} \\theta = 1',
      'sin^2 θ + cos^2 θ = 1',
    ],
    ['mathematical italic letters and a minus sign', '𝑓(𝑥) = 𝑥 − 1', undefined, 'f(x) = x - 1', 'f(x) = x - 1'],
    ['Symbol-font letters without a Unicode mapping', 'a + b = p', 'ABCDEF+Symbol', '\\alpha + \\beta = \\pi', 'α + β = π'],
    ['a root over a group', 'r = √(x² + y²)', undefined, 'r = \\sqrt{x^{2} + y^{2}}', 'r = √(x^2 + y^2)'],
  ])('reads %s', (_label, run, font, latex, text) => {
    expect(fromPdfRun(run, font)).toEqual({ ok: true, source: 'pdf', latex, text, display: false });
  });

  it('returns an error for runs that are not a formula', () => {
    expect(fromPdfRun('')).toEqual({ ok: false, source: 'pdf', error: 'empty formula' });
    expect(fromPdfRun('x^')).toEqual({ ok: false, source: 'pdf', error: expect.stringMatching(/^invalid LaTeX: /) as string });
  });

  it('tells math runs from prose by font or by symbols', () => {
    expect(isMathRun('x', 'CMMI10')).toBe(true);
    expect(isMathRun('a', 'BCDEEE+CambriaMath')).toBe(true);
    expect(isMathRun('x ≤ y', 'Times-Roman')).toBe(true);
    expect(isMathRun('The results are shown below.', 'Times-Roman')).toBe(false);
  });
});

import { commandifyFunctionNames, normalizeLatex } from './latex-normalize';

describe('normalizeLatex', () => {
  it.each([
    ['collapses whitespace and spaces binary operators and relations', 'x   =  a+b-c', 'x = a + b - c'],
    ['keeps a unary minus tight', '-x + (-y) = -1', '-x + (-y) = -1'],
    ['braces every script', 'x^2_i + e^{-x^2}', 'x^{2}_{i} + e^{-x^{2}}'],
    ['keeps \\left and \\right', '\\left[ \\frac{a}{b} \\right)', '\\left[\\frac{a}{b}\\right)'],
    ['spells synonyms one way', 'a \\le b \\ge c \\ne d \\to e', 'a \\leq b \\geq c \\neq d \\rightarrow e'],
    ['turns \\dfrac and \\tfrac into \\frac, arguments braced', '\\dfrac12 + \\tfrac{a}{b}', '\\frac{1}{2} + \\frac{a}{b}'],
    ['turns infix \\over and \\choose into \\frac and \\binom', '{n \\choose k} = {a \\over b}', '\\binom{n}{k} = \\frac{a}{b}'],
    ['keeps the space a control word needs', '\\pi r^2', '\\pi r^{2}'],
    ['separates an operator from its operand', '\\sum_{i=1}^{n}i \\sin x', '\\sum_{i = 1}^{n} i \\sin x'],
    ['writes stacked limits as scripts', '\\underset{x\\to 0}{\\lim} f', '\\lim_{x \\rightarrow 0} f'],
    ['keeps text as written', '\\text{if } x \\in A', '\\text{if }x \\in A'],
    ['keeps environments', '\\begin{matrix}a&b\\\\c&d\\end{matrix}', '\\begin{matrix} a & b \\\\ c & d \\end{matrix}'],
    ['drops \\label', '\\label{eq:1} E = mc^2', 'E = mc^{2}'],
  ])('%s', (_label, input, expected) => {
    expect(normalizeLatex(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const once = normalizeLatex('\\int_0^1 {x \\over 2}\\,dx \\le \\left( \\sum_{k} a_k \\right)^2');
    expect(normalizeLatex(once)).toBe(once);
  });
});

describe('commandifyFunctionNames', () => {
  it('turns bare operator names into commands, and only whole names', () => {
    expect(commandifyFunctionNames('sin x + \\sin y + sinh z + arcsin(w) + cosine + log_{2} n')).toBe(
      '\\sin x + \\sin y + \\sinh z + \\arcsin(w) + cosine + \\log_{2} n',
    );
  });
});

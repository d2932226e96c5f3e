import { containsLatex, isFormulaCandidate } from './formula-candidates';

describe('formula candidates', () => {
  it.each([
    'The energy is $E = mc^2$ here.',
    'Inline \\(a^2 + b^2\\) math.',
    'Display \\[ \\int_0^1 f(x) dx \\]',
    'We have $$\\sum_{i=1}^n i$$.',
    '\\begin{equation} x = 1 \\end{equation}',
    'where $\\alpha$ is small',
    'and $x_i$ the samples',
  ])('finds LaTeX in %s', (text) => {
    expect(containsLatex(text)).toBe(true);
  });

  it.each(['It costs $5 and $10.', 'Between $5 and $10 a month.', 'A backslash \\ alone.', 'No math at all.', ''])(
    'finds none in %s',
    (text) => {
      expect(containsLatex(text)).toBe(false);
    },
  );

  it('takes every formula node, and other nodes only when their text holds LaTeX', () => {
    expect(isFormulaCandidate({ type: 'formula', text: 'x+1' })).toBe(true);
    expect(isFormulaCandidate({ type: 'paragraph', text: 'Let $x^2 = 4$.' })).toBe(true);
    expect(isFormulaCandidate({ type: 'paragraph', text: 'Plain prose.' })).toBe(false);
  });
});

import { findFormulas } from './find-formulas';

const spans = (text: string) => findFormulas(text).map((f) => ({ raw: f.raw, ok: f.ok, at: [f.start, f.end] }));

describe('findFormulas', () => {
  it('finds every kind of delimiter, with offsets into the text', () => {
    const text =
      'The energy is $E = mc^2$ where \\(c\\) is the speed of light.\n' +
      'Roots: $$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$ and \\[ \\sum_{i=1}^n i \\]\n' +
      '\\begin{equation}\\label{eq:euler} e^{i\\pi} + 1 = 0 \\end{equation}\n' +
      '\\begin{align*} a &= b \\\\ c &= d \\end{align*}';
    const found = findFormulas(text);
    expect(found.map((f) => f.raw)).toEqual([
      '$E = mc^2$',
      '\\(c\\)',
      '$$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$',
      '\\[ \\sum_{i=1}^n i \\]',
      '\\begin{equation}\\label{eq:euler} e^{i\\pi} + 1 = 0 \\end{equation}',
      '\\begin{align*} a &= b \\\\ c &= d \\end{align*}',
    ]);
    for (const f of found) expect(text.slice(f.start, f.end)).toBe(f.raw);
    expect(found.every((f) => f.ok)).toBe(true);
    expect(found.map((f) => (f.ok ? [f.text, f.display] : f.error))).toEqual([
      ['E = mc^2', false],
      ['c', false],
      ['x = (-b ± √(b^2 - 4ac))/(2a)', true],
      ['∑_(i = 1)^n i', true],
      ['e^(iπ) + 1 = 0', true],
      ['a = b; c = d', true],
    ]);
  });

  it('leaves prices and escaped dollars alone', () => {
    expect(spans('It costs $5 and $10, or US$ 3.50 per unit.')).toEqual([]);
    expect(spans('Between $20 and $30 a night, plus $x$ tax.')).toEqual([{ raw: '$x$', ok: true, at: [34, 37] }]);
    expect(spans('Escaped \\$5 and \\$x\\$ are text.')).toEqual([]);
    expect(spans('No closing $x + y here')).toEqual([]);
  });

  it('does not let an inline formula run across a blank line', () => {
    expect(spans('Price: $x\n\nand later $')).toEqual([]);
  });

  it('reports malformed formulas at their place instead of throwing', () => {
    const found = findFormulas('Good $a+b$, bad $$\\frac{1}{2$$, unknown \\(\\foo\\).');
    expect(found.map((f) => [f.raw, f.ok])).toEqual([
      ['$a+b$', true],
      ['$$\\frac{1}{2$$', false],
      ['\\(\\foo\\)', false],
    ]);
    expect(found[1]).toMatchObject({
      ok: false,
      source: 'latex',
      error: expect.stringMatching(/^invalid LaTeX: Unexpected end of input/) as string,
    });
  });

  it('finds nothing in text without math, and survives unbalanced delimiters', () => {
    expect(findFormulas('Plain text with 50% margins & no math.')).toEqual([]);
    expect(spans('\\[ never closed')).toEqual([]);
    expect(spans('\\begin{equation} x = 1')).toEqual([]);
  });
});

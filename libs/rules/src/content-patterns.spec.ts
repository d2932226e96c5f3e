import { RE2JS } from 're2js';
import { boundedText, compileContentPattern, contentPatternMatches, estimateProgramSize } from './content-patterns';
import { FILTER_LIMITS } from './filter-limits';

describe('content patterns (RE2)', () => {
  it('matches anywhere in the text, case-sensitively, with RE2 syntax', () => {
    expect(contentPatternMatches('[Ii]nvoice', 'see the Invoice below')).toBe(true);
    expect(contentPatternMatches('invoice', 'INVOICE')).toBe(false);
    expect(contentPatternMatches('(?i)invoice', 'INVOICE')).toBe(true);
    expect(contentPatternMatches('^Table \\d+', 'Table 12: results')).toBe(true);
    expect(contentPatternMatches('\\p{Greek}+', 'the angle α')).toBe(true);
  });

  it('runs a pattern that backtracks catastrophically in linear time', () => {
    // With RegExp this takes minutes ((a+)+$ against 30 a's and a mismatch); the test would time out.
    expect(contentPatternMatches('(a+)+$', `${'a'.repeat(30)}!`)).toBe(false);
    expect(contentPatternMatches('(a+)+$', 'a'.repeat(30))).toBe(true);
    expect(contentPatternMatches('(x+x+)+y', 'x'.repeat(5000))).toBe(false);
  });

  it('refuses lookaround and backreferences, saying that the syntax is RE2', () => {
    for (const p of ['(?<=a)b', '(?<!a)b', 'a(?=b)', 'a(?!b)', '(a)\\1']) {
      const compiled = compileContentPattern(p);
      expect(compiled).toEqual({
        ok: false,
        problem: expect.stringMatching(/^is not a valid regular expression: .*RE2 syntax: no lookahead, lookbehind or backreferences/),
      });
    }
    expect(compileContentPattern('(unclosed')).toEqual({
      ok: false,
      problem: 'is not a valid regular expression: missing closing ): `(unclosed`',
    });
  });

  it('refuses patterns that compile to too big a program, before compiling the huge ones', () => {
    expect(compileContentPattern('[a-z]{990}').ok).toBe(true);
    const big = compileContentPattern('[a-z]{1000}x');
    expect(big).toEqual({
      ok: false,
      problem: expect.stringMatching(/^is too complex: it compiles to \d+ RE2 instructions, the limit is 1000/),
    });
    const huge = compileContentPattern(`(?:${'abcdefghij'.repeat(90)}){1000}`);
    expect(huge).toEqual({ ok: false, problem: expect.stringMatching(/^is too complex: it compiles to about \d+ RE2 instructions/) });
  });

  it('estimates at least the compiled size', () => {
    for (const p of [
      'abc',
      '[Ii]nvoice',
      '(a|bc|def)*x',
      '(?:ab){3,7}',
      'x{2,}',
      '(?P<n>\\d+)-(?<m>\\w{4})',
      '\\Qa.b\\E+',
      '(?i)dose|mg',
      '[^]a]{10}',
      '\\p{L}{5}\\x{41}',
      'a??b*?',
    ]) {
      expect(estimateProgramSize(p)).toBeGreaterThanOrEqual(RE2JS.compile(p).programSize());
    }
  });

  it('caches compiled patterns', () => {
    expect(compileContentPattern('cached+')).toBe(compileContentPattern('cached+'));
  });

  it('matches only the first maxMatchedTextLength characters of a text, without splitting a surrogate pair', () => {
    const limit = FILTER_LIMITS.maxMatchedTextLength;
    expect(contentPatternMatches('needle', `${'x'.repeat(limit - 6)}needle`)).toBe(true);
    expect(contentPatternMatches('needle', `${'x'.repeat(limit)}needle`)).toBe(false);
    expect(boundedText(`${'x'.repeat(limit - 1)}😀tail`)).toBe('x'.repeat(limit - 1));
  });

  it('lets a pattern that does not compile match nothing instead of throwing', () => {
    expect(contentPatternMatches('(?=x)', 'x')).toBe(false);
  });
});

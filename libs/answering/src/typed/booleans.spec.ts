import { parseBoolean, statementPolarity } from './booleans';

describe('parseBoolean', () => {
  it.each([
    ['Yes', true],
    ['TRUE', true],
    ['y', true],
    ['✓', true],
    ['Yes, it is renewed automatically.', true],
    ['No', false],
    ['false', false],
    ['N/A', false],
    ['none', false],
  ])('%s is %s', (raw, expected) => {
    expect(parseBoolean(raw)).toBe(expected);
  });

  it('returns null for other text', () => {
    expect(parseBoolean('the contract')).toBeNull();
  });
});

describe('statementPolarity', () => {
  const about =
    (...words: string[]) =>
    (w: string) =>
      words.includes(w);

  it('reads affirmations and negations', () => {
    expect(statementPolarity('The contract renews automatically.').affirmative).toBe(true);
    expect(statementPolarity('The contract does not renew automatically.').affirmative).toBe(false);
    expect(statementPolarity("The contract doesn't renew.").affirmative).toBe(false);
    expect(statementPolarity('Termination is possible without notice.', about('termination')).affirmative).toBe(true);
    expect(statementPolarity('No penalty applies.', about('penalty')).affirmative).toBe(false);
    expect(statementPolarity('Neither party may assign the agreement.', about('assign')).affirmative).toBe(false);
  });

  it('counts only negations near the words asked about', () => {
    const s = 'The deposit, which is not refundable, is due on signing.';
    expect(statementPolarity(s, about('due')).affirmative).toBe(true);
    expect(statementPolarity(s, about('refundable')).affirmative).toBe(false);
  });

  it('lets double negation and "not only" affirm', () => {
    expect(statementPolarity('It is not only cheap but fast.').affirmative).toBe(true);
    expect(statementPolarity('It is not without risk.').affirmative).toBe(true);
  });
});

describe('statementPolarity and "without"', () => {
  it('does not let "without" deny the words before it', () => {
    const about = (w: string) => ['removed', 'reused'].includes(w);
    expect(statementPolarity('The nut can be removed and reused without impairing its efficiency.', about).affirmative).toBe(true);
    expect(statementPolarity('The nut is reused without inspection.', (w) => w === 'inspection').affirmative).toBe(false);
  });
});

import { tokenize } from './tokens';

const texts = (s: string) => tokenize(s).map((t) => t.text);

describe('tokenize', () => {
  it('keeps a URL or an e-mail address one token, without the punctuation after it', () => {
    expect(
      texts('Apply at https://travel.example.gov/passports/fees. Write to help.desk@example.co.uk, or www.example.org (online).'),
    ).toEqual([
      'Apply',
      'at',
      'https://travel.example.gov/passports/fees',
      '.',
      'Write',
      'to',
      'help.desk@example.co.uk',
      ',',
      'or',
      'www.example.org',
      '(',
      'online',
      ')',
      '.',
    ]);
  });

  it('keeps the period of an initial inside a name, as part of a name', () => {
    const tokens = tokenize('Signed by Todd P. Cravens and J. R. Smith in the U.S. today.');
    expect(tokens.map((t) => t.text)).toEqual([
      'Signed',
      'by',
      'Todd',
      'P.',
      'Cravens',
      'and',
      'J.',
      'R.',
      'Smith',
      'in',
      'the',
      'U.S',
      '.',
      'today',
      '.',
    ]);
    expect(tokens[3]).toMatchObject({ shape: 'Xx', stem: 'p' });
  });
});

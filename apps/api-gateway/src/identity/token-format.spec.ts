import { randomUUID } from 'node:crypto';
import { formatToken, hashSecret, newTokenSecret, parseToken, secretMatches } from './token-format';

const TOKEN_SHAPE = /^dit_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/;

describe('access token format', () => {
  it('formats as dit_<32 hex id>_<43 base64url secret>', () => {
    const id = randomUUID();
    const token = formatToken(id, newTokenSecret());
    expect(token).toMatch(TOKEN_SHAPE);
    expect(token.slice(4, 36)).toBe(id.replace(/-/g, ''));
  });

  it('parses back to the same id and secret', () => {
    for (let i = 0; i < 20; i++) {
      const id = randomUUID();
      const secret = newTokenSecret();
      expect(parseToken(formatToken(id, secret))).toEqual({ tokenId: id, secret });
    }
  });

  it('makes a new secret every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, newTokenSecret));
    expect(secrets.size).toBe(50);
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  const good = formatToken('0f8fad5b-d9cb-469f-a165-70867728950e', 'A'.repeat(43));

  it.each([
    ['empty', ''],
    ['another prefix', good.replace('dit_', 'pat_')],
    ['no prefix', good.slice(4)],
    ['upper-case id', good.replace('0f8fad5b', '0F8FAD5B')],
    ['short id', good.replace('0f8fad5b', '0f8fad5')],
    ['short secret', good.slice(0, -1)],
    ['long secret', `${good}A`],
    ['secret with a dot', `${good.slice(0, -1)}.`],
    ['surrounding space', ` ${good} `],
    ['missing separator', good.replace(/_(?=[A]{43}$)/, '')],
    ['uuid with dashes', `dit_0f8fad5b-d9cb-469f-a165-70867728950e_${'A'.repeat(43)}`],
  ])('rejects a malformed token: %s', (_, token) => {
    expect(parseToken(token)).toBeNull();
  });

  it('checks a secret against its stored hash', () => {
    const secret = newTokenSecret();
    const stored = hashSecret(secret);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(secret)).toBe(stored);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(newTokenSecret(), stored)).toBe(false);
  });

  it('treats a damaged stored hash as a mismatch instead of failing', () => {
    const secret = newTokenSecret();
    expect(secretMatches(secret, '')).toBe(false);
    expect(secretMatches(secret, 'abcd')).toBe(false);
    expect(secretMatches(secret, 'not hex at all')).toBe(false);
  });
});

import { deriveKey, openToken, signToken } from './signed-token';

const key = deriveKey('a-secret-of-at-least-thirty-two-characters', 'transfer-grant');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('signed tokens', () => {
  const token = signToken(key, { k: 'reports/q1.pdf', e: 1 });
  const [body, sig] = token.split('.');

  it('opens the token it signed', () => {
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(openToken(key, token)).toEqual({ k: 'reports/q1.pdf', e: 1 });
  });

  it('has one valid spelling: other encodings of the same signature bytes are refused', () => {
    // The last of 43 characters carries 4 bits and 2 unused ones: flipping an unused bit keeps the bytes.
    const last = ALPHABET.indexOf(sig[42]);
    const sameBytes = `${sig.slice(0, 42)}${ALPHABET[last ^ 1]}`;
    expect(Buffer.from(sameBytes, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    const standard = sig.replace(/-/g, '+').replace(/_/g, '/');
    for (const variant of [
      `${sig}=`,
      `${sig}==`,
      sameBytes,
      `${sig}%`,
      `${sig}\n`,
      ` ${sig}`,
      `${sig}.`,
      ...(standard !== sig ? [standard] : []),
    ]) {
      expect({ variant, opened: openToken(key, `${body}.${variant}`) }).toEqual({ variant, opened: null });
    }
  });

  it('refuses a body spelled in another way, even one that decodes to the same JSON', () => {
    expect(openToken(key, `${body}=.${sig}`)).toBeNull();
    expect(openToken(key, `${body} .${sig}`)).toBeNull();
  });

  it('refuses a token signed with another key or altered', () => {
    expect(openToken(deriveKey('another-secret-of-at-least-thirty-two-chars', 'transfer-grant'), token)).toBeNull();
    expect(openToken(key, `${Buffer.from('{"k":"other","e":1}').toString('base64url')}.${sig}`)).toBeNull();
    expect(openToken(key, `${body}.${'A'.repeat(43)}`)).toBeNull();
  });
});

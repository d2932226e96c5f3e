import { createHmac, timingSafeEqual } from 'node:crypto';

/** base64url without padding: the only spelling a token part may have. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * `<base64url(JSON)>.<base64url(HMAC-SHA256)>`: a compact token whose content the client can
 * read but not change. Used for transfer grants and list cursors, each with its own key.
 */
export function signToken(key: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/**
 * The payload of a token signed with `key`, or null when it is malformed or its signature does
 * not match. Each token has exactly one valid spelling: the signature is compared as the encoded
 * string this service would write (43 base64url characters, no padding), not as the bytes it
 * decodes to, because Node's decoder takes `=` padding, `+` and `/`, stray characters and other
 * low bits in the last character to mean the same bytes.
 */
export function openToken(key: Buffer, token: string): unknown {
  if (typeof token !== 'string') return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const body = token.slice(0, dot);
  const given = token.slice(dot + 1);
  if (!BASE64URL.test(body) || !BASE64URL.test(given)) return null;
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given, 'latin1'), Buffer.from(expected, 'latin1'))) return null;
  const json = Buffer.from(body, 'base64url');
  // The body is covered by the MAC as written; still, only the canonical spelling is a token.
  if (json.toString('base64url') !== body) return null;
  try {
    const value: unknown = JSON.parse(json.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function mac(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

/** One key per use, derived from the shared secret, so a cursor can never pass for a grant. */
export function deriveKey(secret: string, purpose: 'transfer-grant' | 'list-cursor'): Buffer {
  return createHmac('sha256', secret).update(`docintel:${purpose}`).digest();
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `<base64url(JSON)>.<base64url(HMAC-SHA256)>`: a compact token whose content the client can
 * read but not change. Used for transfer grants and list cursors, each with its own key.
 */
export function signToken(key: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/** The payload of a token signed with `key`, or null when it is malformed or its signature does not match. */
export function openToken(key: Buffer, token: string): unknown {
  if (typeof token !== 'string') return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(key, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
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

/** The development fallback when STORAGE_SIGNING_SECRET is unset: stable per database, not secret. */
export function developmentSecret(databaseUrl: string): string {
  return createHash('sha256').update(`docintel:dev-signing-secret:${databaseUrl}`).digest('hex');
}

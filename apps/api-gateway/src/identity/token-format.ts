import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A personal access token reads `dit_<token id, 32 hex>_<secret, 43 base64url>`: the id finds the
 * row, the secret is checked against its stored SHA-256. The secret has 256 bits of entropy, so a
 * fast hash is enough; a slow password hash would only slow every request down.
 */
const TOKEN = /^dit_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface ParsedToken {
  tokenId: string;
  secret: string;
}

export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function formatToken(tokenId: string, secret: string): string {
  return `dit_${tokenId.replace(/-/g, '')}_${secret}`;
}

export function parseToken(token: string): ParsedToken | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const h = m[1];
  return { tokenId: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, secret: m[2] };
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

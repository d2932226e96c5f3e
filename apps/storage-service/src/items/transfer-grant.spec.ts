import { deriveKey } from './signed-token';
import { TransferGrantSigner, type TransferGrant } from './transfer-grant';

const signer = new TransferGrantSigner(deriveKey('a-secret-of-at-least-thirty-two-characters', 'transfer-grant'));
const now = Date.UTC(2025, 0, 1);
const grant: TransferGrant = {
  providerId: '2b1f0a52-5c4e-4a7e-9d36-0c3a9f6a1e10',
  namespace: 'acme',
  key: 'reports/Q1 résumé.pdf',
  op: 'put',
  purpose: 'presigned',
  expiresAt: now / 1000 + 60,
  maxBytes: 1024,
  contentType: 'application/pdf',
};

function tamper(token: string, edit: (wire: Record<string, unknown>) => void): string {
  const [body, sig] = token.split('.');
  const wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  edit(wire);
  return `${Buffer.from(JSON.stringify(wire)).toString('base64url')}.${sig}`;
}

describe('TransferGrantSigner', () => {
  it('round-trips a grant, unicode key included, in a URL-safe token', () => {
    const token = signer.sign(grant);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signer.verify(token, now)).toEqual(grant);
  });

  it('refuses a grant from its expiry on', () => {
    const token = signer.sign(grant);
    expect(signer.verify(token, grant.expiresAt * 1000 - 1)).toMatchObject({ key: grant.key });
    expect(signer.verify(token, grant.expiresAt * 1000)).toBe('expired');
  });

  it('refuses a grant whose key, operation, limit or expiry was changed', () => {
    const token = signer.sign(grant);
    expect(
      signer.verify(
        tamper(token, (w) => (w.k = '../../etc/passwd')),
        now,
      ),
    ).toBe('invalid');
    expect(
      signer.verify(
        tamper(token, (w) => (w.o = 'get')),
        now,
      ),
    ).toBe('invalid');
    expect(
      signer.verify(
        tamper(token, (w) => (w.n = 'other-namespace')),
        now,
      ),
    ).toBe('invalid');
    expect(
      signer.verify(
        tamper(token, (w) => delete w.m),
        now,
      ),
    ).toBe('invalid');
    expect(
      signer.verify(
        tamper(token, (w) => (w.e = (w.e as number) + 3600)),
        now,
      ),
    ).toBe('invalid');
  });

  it('refuses a grant signed with another secret, or a cursor passed off as a grant', () => {
    const other = new TransferGrantSigner(deriveKey('another-secret-of-at-least-thirty-two-chars', 'transfer-grant'));
    expect(signer.verify(other.sign(grant), now)).toBe('invalid');
    const cursorKeySigner = new TransferGrantSigner(deriveKey('a-secret-of-at-least-thirty-two-characters', 'list-cursor'));
    expect(signer.verify(cursorKeySigner.sign(grant), now)).toBe('invalid');
  });

  it.each(['', 'abc', 'abc.def', 'a.b.c', '.sig', `${'x'.repeat(10)}.`])('refuses the malformed token %p', (token) => {
    expect(signer.verify(token, now)).toBe('invalid');
  });
});

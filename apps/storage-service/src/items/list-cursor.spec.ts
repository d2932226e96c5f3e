import { DomainError } from '@docintel/contracts';
import { ListCursorCodec } from './list-cursor';
import { deriveKey } from './signed-token';

const codec = new ListCursorCodec(deriveKey('a-secret-of-at-least-thirty-two-characters', 'list-cursor'));
const listing = { directory: 'reports/', q: 'q1' };

function rejection(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

describe('ListCursorCodec', () => {
  it('gives back the last key for the listing it was issued for', () => {
    const cursor = codec.encode({ ...listing, after: 'reports/b.pdf' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor, listing)).toBe('reports/b.pdf');
  });

  it('rejects a cursor of another directory or filter with a 400 naming the cursor', () => {
    const cursor = codec.encode({ ...listing, after: 'reports/b.pdf' });
    for (const other of [
      { directory: '', q: 'q1' },
      { directory: 'reports/', q: '' },
    ]) {
      const err = rejection(() => codec.decode(cursor, other));
      expect(err).toBeInstanceOf(DomainError);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.message).toBe('cursor is invalid');
      expect(err.details[0].field).toBe('cursor');
    }
  });

  it('rejects a cursor of another provider or namespace (scope), and an unscoped one where a scope is expected', () => {
    const scoped = { ...listing, scope: 'provider-1/acme' };
    const cursor = codec.encode({ ...scoped, after: 'reports/b.pdf' });
    expect(codec.decode(cursor, scoped)).toBe('reports/b.pdf');
    for (const scope of ['provider-1/globex', 'provider-2/acme', undefined]) {
      expect(rejection(() => codec.decode(cursor, { ...listing, scope })).message).toBe('cursor is invalid');
    }
    const unscoped = codec.encode({ ...listing, after: 'reports/b.pdf' });
    expect(rejection(() => codec.decode(unscoped, scoped)).message).toBe('cursor is invalid');
  });

  it('rejects a forged or altered cursor', () => {
    const cursor = codec.encode({ ...listing, after: 'reports/b.pdf' });
    const [, sig] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ d: 'reports/', q: 'q1', a: 'reports/z' })).toString('base64url')}.${sig}`;
    for (const bad of [forged, `${cursor}x`, cursor.slice(1), 'bm90LWEtY3Vyc29y', '']) {
      expect(rejection(() => codec.decode(bad, listing)).message).toBe('cursor is invalid');
    }
  });
});

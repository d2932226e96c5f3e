import { DomainError } from '@docintel/contracts';
import { openToken, signToken } from './signed-token';

/** Where a listing stopped: the page resumes strictly after `after` in the same directory and filter. */
export interface ListPosition {
  directory: string;
  q: string;
  after: string;
  /**
   * What else the cursor belongs to (the provider and the namespace whose part of it is listed),
   * so a cursor is refused anywhere but in the listing it came from.
   */
  scope?: string;
}

/**
 * Opaque, signed list cursors. A cursor holds the last key returned (not an offset), so items
 * added or removed between pages never make the next page skip or repeat what remains.
 */
export class ListCursorCodec {
  constructor(private readonly key: Buffer) {}

  encode(pos: ListPosition): string {
    return signToken(this.key, { d: pos.directory, q: pos.q, a: pos.after, ...(pos.scope ? { s: pos.scope } : {}) });
  }

  /** The key to resume after; 400 (field `cursor`) for a forged or altered cursor or one issued for another listing. */
  decode(cursor: string, expected: { directory: string; q: string; scope?: string }): string {
    const w = openToken(this.key, cursor) as { d?: unknown; q?: unknown; a?: unknown; s?: unknown } | null;
    if (
      !w ||
      typeof w.a !== 'string' ||
      w.a === '' ||
      w.d !== expected.directory ||
      w.q !== expected.q ||
      (w.s ?? '') !== (expected.scope ?? '')
    ) {
      throw DomainError.invalid(
        [{ field: 'cursor', problem: 'is invalid; pass nextCursor from the previous page of the same listing' }],
        'cursor is invalid',
      );
    }
    return w.a;
  }
}

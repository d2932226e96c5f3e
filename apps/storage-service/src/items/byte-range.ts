/** A single satisfiable byte range, inclusive at both ends. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Interprets a Range header against a file size (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` and
 * `bytes=-n`. Returns null when the whole file should be sent (no header, another unit, several
 * ranges or a malformed value, which servers may ignore) and 'unsatisfiable' when the one range
 * asked for lies wholly past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m) return null;
  const [, first, last] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

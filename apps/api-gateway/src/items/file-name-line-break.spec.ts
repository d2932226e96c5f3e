import { PassThrough } from 'node:stream';
import { multipartBoundary, watchFileNameLineBreak } from './file-name-line-break';

const TYPE = 'multipart/form-data; boundary=XyZ';

/** A multipart body: fields first, then one file part with the Content-Disposition given. */
function body(disposition: string, fields: Record<string, string> = {}): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--XyZ\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/plain\r\n\r\nfilename="not\r\na header"\r\n--XyZ--\r\n`;
}

/** What the watch concludes when `text` flows in chunks of `size` bytes. */
function watch(text: string, size = 7, contentType = TYPE): boolean {
  const raw = new PassThrough();
  const w = watchFileNameLineBreak(raw, contentType);
  const bytes = Buffer.from(text, 'latin1');
  for (let i = 0; i < bytes.length; i += size) raw.emit('data', bytes.subarray(i, i + size));
  return w.lineBreakInFileName;
}

describe('watchFileNameLineBreak', () => {
  it.each([
    ['CR LF', 'filename="evil\r\nname.txt"'],
    ['LF', 'filename="evil\nname.txt"'],
    ['CR', 'filename="evil\rname.txt"'],
    ['CR LF at the start', 'filename="\r\nname.txt"'],
  ])('sees a %s inside the quoted file name, whatever the chunking', (_what, disposition) => {
    for (const size of [1, 3, 7, 64, 100_000]) expect({ size, seen: watch(body(disposition), size) }).toEqual({ size, seen: true });
  });

  it('sees it after fields, in the first file part', () => {
    expect(watch(body('filename="evil\r\nname.txt"', { a: 'one', b: 'x'.repeat(5000) }))).toBe(true);
  });

  it.each([
    ['a plain name', 'filename="report.txt"'],
    ['an escaped quote', 'filename="say \\"hi\\".txt"'],
    ['an RFC 5987 name (control characters are refused elsewhere)', "filename*=UTF-8''evil%0D%0Aname.txt"],
    ['a folded header line', 'filename="a\r\n b.txt"'],
  ])('is quiet for %s, and for line breaks in the file content', (_what, disposition) => {
    expect(watch(body(disposition))).toBe(false);
  });

  it('does nothing without a boundary', () => {
    expect(watch(body('filename="evil\r\nname.txt"'), 7, 'multipart/form-data')).toBe(false);
  });

  it('reads the boundary quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary=----x123')).toBe('----x123');
    expect(multipartBoundary('application/json')).toBeUndefined();
  });
});

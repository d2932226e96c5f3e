/**
 * The provider-items contract every driver must keep, end to end through the gateway. The LOCAL
 * and S3 suites run it against their own provider; driver-specific cases live in their specs.
 */
import { request as httpRequest } from 'node:http';
import { ok } from './support/client';
import { errorBody } from './support/http';
import { EventLog, ItemsApi, NAMESPACE } from './storage-support';

export interface ContractContext {
  /** The provider under test, as a caller of a namespace that may use it. */
  api: ItemsApi;
  /** The same provider without a token. */
  anonymous: ItemsApi;
  /** A provider that exists but is not shared with the caller's namespace. */
  hidden: ItemsApi;
  events: EventLog;
  /** MAX_UPLOAD_BYTES of the stack. */
  maxUploadBytes: number;
  /** Creates files quickly, beside the API (on disk or straight into the bucket). */
  seed(files: Array<{ key: string; body: string }>): Promise<void>;
  /**
   * A provider of the same type that gives each namespace its own root (LOCAL) or key prefix
   * (S3): `a` is a caller of one namespace, `b` of another, both allowed to use it.
   */
  isolated: { a: ItemsApi; b: ItemsApi };
}

const MINUTE = 60;

/** PUT with node:http, the way any HTTP client would send bytes to a presigned URL. */
export function put(url: string, body: Buffer, contentType: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function itemsContract(label: string, context: () => ContractContext): void {
  let c: ContractContext;
  beforeAll(() => {
    c = context();
  });
  const base = `${label.toLowerCase()}-contract/`;

  describe('listing', () => {
    it('answers an empty page, without nextCursor, for a directory that does not exist', async () => {
      expect(await c.api.listOk({ key: `${base}nothing-here/` })).toEqual({ items: [] });
    });

    it('lists folders and files directly inside a directory with their fields', async () => {
      expect((await c.api.folder(`${base}list/sub/`)).response.status).toBe(201);
      expect((await c.api.send(`${base}list/`, 'Report.PDF', '%PDF-1.4 tiny', 'application/pdf')).response.status).toBe(201);
      expect((await c.api.send(`${base}list/sub/`, 'deeper.txt', 'not listed at this level', 'text/plain')).response.status).toBe(201);
      const { items, nextCursor } = await c.api.listOk({ key: `${base}list/` });
      expect(nextCursor).toBeUndefined();
      expect(items.map((i) => i.key)).toEqual([`${base}list/Report.PDF`, `${base}list/sub/`]);
      const [file, folder] = items;
      expect(file).toEqual({
        providerId: c.api.providerId,
        key: `${base}list/Report.PDF`,
        type: 'FILE',
        size: 13,
        extension: 'pdf',
        mediaType: 'application/pdf',
        lastModified: expect.any(Number),
      });
      // Epoch milliseconds, not seconds.
      expect(Math.abs((file.lastModified as number) - Date.now())).toBeLessThan(10 * MINUTE * 1000);
      expect(folder).toMatchObject({ key: `${base}list/sub/`, type: 'FOLDER' });
    });

    it('filters by name with q, case-insensitively', async () => {
      await c.api.send(`${base}filter/`, 'Alpha-notes.txt', 'a', 'text/plain');
      await c.api.send(`${base}filter/`, 'beta.txt', 'b', 'text/plain');
      await c.api.folder(`${base}filter/ALPHA-folder/`);
      const { items } = await c.api.listOk({ key: `${base}filter/`, q: 'alpha' });
      expect(items.map((i) => i.key)).toEqual([`${base}filter/ALPHA-folder/`, `${base}filter/Alpha-notes.txt`]);
    });

    it('rejects a directory key that does not end in / (400 naming key)', async () => {
      const body = await errorBody(await c.api.list({ key: `${base}list` }), 400, 'VALIDATION_FAILED');
      expect(body.details[0].field).toBe('key');
    });

    it('rejects a limit outside 1..1000 and a forged cursor (400)', async () => {
      for (const limit of [0, 1001]) {
        const body = await errorBody(await c.api.list({ limit }), 400, 'VALIDATION_FAILED');
        expect(body.details[0].field).toBe('limit');
      }
      const forged = `${Buffer.from(JSON.stringify({ d: '', q: '', a: 'zzz' })).toString('base64url')}.${'A'.repeat(43)}`;
      for (const cursor of [forged, 'not-a-cursor', `${forged}x`]) {
        const body = await errorBody(await c.api.list({ cursor }), 400, 'VALIDATION_FAILED');
        expect(body.message).toBe('cursor is invalid');
        expect(body.details[0].field).toBe('cursor');
      }
    });

    it('rejects a cursor issued for another directory or filter', async () => {
      await c.api.send(`${base}cursor-a/`, '1.txt', '1', 'text/plain');
      await c.api.send(`${base}cursor-a/`, '2.txt', '2', 'text/plain');
      const first = await c.api.listOk({ key: `${base}cursor-a/`, limit: 1 });
      expect(first.nextCursor).toEqual(expect.any(String));
      await errorBody(await c.api.list({ key: `${base}cursor-b/`, cursor: first.nextCursor, limit: 1 }), 400, 'VALIDATION_FAILED');
      await errorBody(await c.api.list({ key: `${base}cursor-a/`, q: '2', cursor: first.nextCursor, limit: 1 }), 400, 'VALIDATION_FAILED');
      const second = await c.api.listOk({ key: `${base}cursor-a/`, cursor: first.nextCursor, limit: 1 });
      expect(second.items.map((i) => i.key)).toEqual([`${base}cursor-a/2.txt`]);
      expect(second.nextCursor).toBeUndefined();
    });

    it('pages through 1,000+ items with a stable cursor while items are added and removed between pages', async () => {
      const dir = `${base}paging/`;
      const name = (i: number) => `f${String(i).padStart(5, '0')}.txt`;
      // Even numbers only, so that odd ones can be inserted between pages, before and after the cursor.
      await c.seed(Array.from({ length: 1100 }, (_, i) => ({ key: `${dir}${name(i * 2)}`, body: String(i) })));
      const firstPage = await c.api.listOk({ key: dir });
      expect(firstPage.items).toHaveLength(50); // the default limit
      expect(firstPage.nextCursor).toEqual(expect.any(String));

      const seen: string[] = [];
      const removed = new Set<string>();
      const insertedAhead: string[] = [];
      const insertedBehind: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await c.api.listOk({ key: dir, cursor, limit: 97 });
        seen.push(...page.items.map((i) => i.key.slice(dir.length)));
        cursor = page.nextCursor;
        pages++;
        if (cursor && pages % 3 === 0) {
          const last = Number(seen[seen.length - 1].slice(1, 6));
          const even = last - (last % 2);
          // Behind the cursor: must not show up. Ahead of it: must. Removed ahead of it: must not.
          expect((await c.api.send(dir, name(even - 1), 'behind', 'text/plain')).response.status).toBe(201);
          expect((await c.api.send(dir, name(even + 3), 'ahead', 'text/plain')).response.status).toBe(201);
          insertedBehind.push(name(even - 1));
          insertedAhead.push(name(even + 3));
          if (even + 6 <= 2 * 1099) {
            expect((await c.api.remove(`${dir}${name(even + 6)}`)).response.status).toBe(204);
            removed.add(name(even + 6));
          }
        }
      } while (cursor);

      expect(pages).toBeGreaterThan(11);
      expect(insertedAhead.length).toBeGreaterThan(2);
      expect(new Set(seen).size).toBe(seen.length); // nothing twice
      expect([...seen].sort()).toEqual(seen); // key order
      const expected = Array.from({ length: 1100 }, (_, i) => name(i * 2)).filter((n) => !removed.has(n));
      expect(seen.filter((n) => Number(n.slice(1, 6)) % 2 === 0)).toEqual(expected);
      expect(seen.filter((n) => Number(n.slice(1, 6)) % 2 === 1)).toEqual(insertedAhead);
      for (const n of insertedBehind) expect(seen).not.toContain(n);
    });
  });

  describe('upload and folders', () => {
    it('uploads a multipart file into a directory (201) with a unicode name, and lists it', async () => {
      const res = await c.api.send(`${base}up/`, 'Zürich résumé 2024.json', '{"a":1}', 'application/json');
      expect(res.response.status).toBe(201);
      const item = res.data;
      expect(item).toMatchObject({
        key: `${base}up/Zürich résumé 2024.json`,
        type: 'FILE',
        size: 7,
        extension: 'json',
        mediaType: 'application/json',
      });
      expect(await c.api.keys(`${base}up/`)).toContain(`${base}up/Zürich résumé 2024.json`);
    });

    it('uploads to the root when the query key is absent, and overwrites an existing file', async () => {
      const name = `${label.toLowerCase()}-root-file.txt`;
      expect((await c.api.send(undefined, name, 'first', 'text/plain')).response.status).toBe(201);
      const second = await c.api.send(undefined, name, 'second!', 'text/plain');
      expect(second.response.status).toBe(201);
      expect(second.data).toMatchObject({ key: name, size: 7 });
      expect(await c.api.text(name)).toBe('second!');
    });

    it('derives the media type from the extension when the client sends a generic one', async () => {
      const res = await c.api.send(`${base}up/`, 'page.HTML', '<p>hi</p>', 'application/octet-stream');
      expect(res.data).toMatchObject({ extension: 'html', mediaType: 'text/html' });
    });

    it('rejects an upload without a part named file, and one whose file name is a path (400)', async () => {
      let body = await errorBody(await c.api.upload(`${base}up/`, 'x.txt', 'x', 'text/plain', 'document'), 400, 'VALIDATION_FAILED');
      expect(body.details[0].field).toBe('file');
      for (const name of ['../escape.txt', 'a/b.txt', '..', 'back\\slash.txt']) {
        body = await errorBody(await c.api.upload(`${base}up/`, name, 'x', 'text/plain'), 400, 'VALIDATION_FAILED');
        expect(body.details[0].field).toBe('file');
      }
      expect(await c.api.keys(`${base}up/`)).not.toContain(`${base}up/escape.txt`);
    });

    it('rejects an upload into a directory key that is not a directory or escapes (400 naming key)', async () => {
      for (const key of [`${base}up`, '../', '/abs/', 'a/../../', 'a\\b/', 'nul\u0000/', `${'x'.repeat(1100)}/`]) {
        const body = await errorBody(await c.api.upload(key, 'x.txt', 'x', 'text/plain'), 400, 'VALIDATION_FAILED');
        expect(body.details[0].field).toBe('key');
      }
    });

    it('answers 413 for a file over MAX_UPLOAD_BYTES and stores nothing', async () => {
      const res = await c.api.upload(`${base}big/`, 'too-big.bin', Buffer.alloc(c.maxUploadBytes + 1, 7));
      await errorBody(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(await c.api.keys(`${base}big/`)).toEqual([]);
      // Exactly at the limit is fine.
      expect((await c.api.send(`${base}big/`, 'just-fits.bin', Buffer.alloc(c.maxUploadBytes, 7))).response.status).toBe(201);
    });

    it('rejects a body that is neither multipart nor JSON (415)', async () => {
      const res = await c.api.request('POST', '', {}, undefined, { 'content-type': 'text/plain' });
      await errorBody(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('creates a folder from JSON { key } (201 FOLDER), nested, idempotently', async () => {
      const res = await c.api.folder(`${base}folders/a/b/`);
      expect(res.response.status).toBe(201);
      expect(res.data).toMatchObject({ providerId: c.api.providerId, key: `${base}folders/a/b/`, type: 'FOLDER' });
      expect((await c.api.folder(`${base}folders/a/b/`)).response.status).toBe(201);
      expect(await c.api.keys(`${base}folders/a/`)).toEqual([`${base}folders/a/b/`]);
    });

    it('rejects a folder key that does not end in / or is unsafe (400 naming key)', async () => {
      for (const key of [`${base}folders/no-slash`, '', '../up/', '/abs/', 'a//b/', 'ctl\u0007/']) {
        const body = await errorBody(await c.api.createFolder(key), 400, 'VALIDATION_FAILED');
        expect(body.details[0].field).toBe('key');
      }
    });
  });

  describe('rename and delete', () => {
    it('renames a file within its directory (200) and the old key is gone', async () => {
      await c.api.send(`${base}ren/`, 'old.txt', 'content', 'text/plain');
      const res = await c.api.renameTo(`${base}ren/old.txt`, 'new.md');
      expect(res.response.status).toBe(200);
      expect(res.data).toMatchObject({ key: `${base}ren/new.md`, type: 'FILE', size: 7, extension: 'md' });
      expect(await c.api.keys(`${base}ren/`)).toEqual([`${base}ren/new.md`]);
      expect(await c.api.text(`${base}ren/new.md`)).toBe('content');
    });

    it('renames a folder with everything in it', async () => {
      await c.api.send(`${base}ren-dir/before/inner/`, 'f.txt', 'f', 'text/plain');
      const res = await c.api.renameTo(`${base}ren-dir/before/`, 'after');
      expect(res.response.status).toBe(200);
      expect(res.data).toMatchObject({ key: `${base}ren-dir/after/`, type: 'FOLDER' });
      expect(await c.api.keys(`${base}ren-dir/after/inner/`)).toEqual([`${base}ren-dir/after/inner/f.txt`]);
      expect(await c.api.keys(`${base}ren-dir/before/`)).toEqual([]);
    });

    it('answers 400 for an empty name or one with /, 404 for a missing item and 409 when the target exists', async () => {
      await c.api.send(`${base}ren2/`, 'a.txt', 'a', 'text/plain');
      await c.api.send(`${base}ren2/`, 'b.txt', 'b', 'text/plain');
      for (const newName of ['', 'x/y.txt', '..', 'bad\u0001name']) {
        const body = await errorBody(await c.api.rename(`${base}ren2/a.txt`, newName), 400, 'VALIDATION_FAILED');
        expect(body.details[0].field).toBe('newName');
      }
      await errorBody(await c.api.rename(`${base}ren2/a.txt`, undefined), 400, 'VALIDATION_FAILED');
      await errorBody(await c.api.rename(`${base}ren2/missing.txt`, 'c.txt'), 404, 'NOT_FOUND');
      await errorBody(await c.api.rename(`${base}ren2/a.txt`, 'b.txt'), 409, 'CONFLICT');
      expect(await c.api.text(`${base}ren2/b.txt`)).toBe('b');
    });

    it('deletes a file (204), then 404 for it', async () => {
      await c.api.send(`${base}del/`, 'gone.txt', 'x', 'text/plain');
      const { response } = await c.api.remove(`${base}del/gone.txt`);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      await errorBody(await c.api.delete(`${base}del/gone.txt`), 404, 'NOT_FOUND');
      await errorBody(await c.api.content(`${base}del/gone.txt`), 404, 'NOT_FOUND');
    });

    it('deletes a folder with everything under it (204)', async () => {
      await c.api.send(`${base}del-dir/tree/a/`, '1.txt', '1', 'text/plain');
      await c.api.send(`${base}del-dir/tree/`, '2.txt', '2', 'text/plain');
      await c.api.send(`${base}del-dir/`, 'keep.txt', 'k', 'text/plain');
      expect((await c.api.remove(`${base}del-dir/tree/`)).response.status).toBe(204);
      expect(await c.api.keys(`${base}del-dir/`)).toEqual([`${base}del-dir/keep.txt`]);
      expect(await c.api.keys(`${base}del-dir/tree/a/`)).toEqual([]);
    });

    it('rejects unsafe keys for delete and rename (400 naming key)', async () => {
      for (const key of ['../x.txt', '/etc/passwd', 'a\\b.txt', 'a/./b.txt', 'nul\u0000.txt', `${'n'.repeat(300)}.txt`, '']) {
        expect((await errorBody(await c.api.delete(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.rename(key, 'ok.txt'), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
    });
  });

  describe('content', () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

    beforeAll(async () => {
      expect((await c.api.send(`${base}content/`, 'data.bin', bytes, 'application/octet-stream')).response.status).toBe(201);
      expect((await c.api.send(`${base}content/`, 'doc.pdf', '%PDF-1.7', 'application/pdf')).response.status).toBe(201);
    });

    it('streams the bytes with Content-Type, Content-Length and Accept-Ranges', async () => {
      const { data, response } = await c.api.read(`${base}content/data.bin`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe('1000');
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(Buffer.from(data!).equals(bytes)).toBe(true);
      const pdf = await c.api.read(`${base}content/doc.pdf`);
      expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(pdf.data!).toString()).toBe('%PDF-1.7');
    });

    it('answers a Range request with 206 and Content-Range, for a start-end, open and suffix range', async () => {
      for (const [range, start, end] of [
        ['bytes=10-19', 10, 19],
        ['bytes=990-', 990, 999],
        ['bytes=-5', 995, 999],
        ['bytes=900-5000', 900, 999],
      ] as const) {
        const { data, response } = await c.api.read(`${base}content/data.bin`, { range });
        expect(response.status).toBe(206);
        expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
        expect(response.headers.get('content-length')).toBe(String(end - start + 1));
        expect(Buffer.from(data!).equals(bytes.subarray(start, end + 1))).toBe(true);
      }
    });

    it('answers 416 with Content-Range */size for a range past the end', async () => {
      const res = await c.api.content(`${base}content/data.bin`, { range: 'bytes=1000-1010' });
      expect(res.headers.get('content-range')).toBe('bytes */1000');
      await errorBody(res, 416, 'RANGE_NOT_SATISFIABLE');
    });

    it('answers 404 for a missing file and 400 for a folder key or an unsafe key', async () => {
      await errorBody(await c.api.content(`${base}content/missing.bin`), 404, 'NOT_FOUND');
      for (const key of [`${base}content/`, '../secret', '/etc/passwd', 'a\\b', 'x\u001f']) {
        expect((await errorBody(await c.api.content(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
    });
  });

  describe('presigned upload and download', () => {
    it('upload-url, confirm before the PUT (404), PUT with an HTTP client, confirm, then listed and downloadable', async () => {
      const key = `${base}presigned/report.json`;
      const payload = Buffer.from(JSON.stringify({ big: 'x'.repeat(5000) }));
      const res = await c.api.presignUpload({ key, size: payload.length, mediaType: 'application/json' });
      expect(res.response.status).toBe(200);
      const target = res.data!;
      expect(target).toEqual({ url: expect.stringMatching(/^https?:\/\//), expiresInSeconds: expect.any(Number), supported: true });
      expect(target.expiresInSeconds).toBeGreaterThan(0);

      await errorBody(await c.api.confirm(key), 404, 'NOT_FOUND');
      const stored = await put(target.url!, payload, 'application/json');
      expect(stored.status).toBe(200);

      const confirmed = await c.api.confirmUpload(key);
      expect(confirmed.response.status).toBe(200);
      expect(confirmed.data).toEqual({
        providerId: c.api.providerId,
        key,
        type: 'FILE',
        size: payload.length,
        extension: 'json',
        mediaType: 'application/json',
        lastModified: expect.any(Number),
      });
      expect(await c.api.keys(`${base}presigned/`)).toEqual([key]);

      const dl = await c.api.presignDownload(key);
      expect(dl.response.status).toBe(200);
      const link = dl.data!;
      expect(link.expiresInSeconds).toBe(15 * MINUTE);
      const fetched = await fetch(link.url);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(payload)).toBe(true);
    });

    it('bounds expirationMinutes (400 outside 1..10080) and answers 404 for a missing file', async () => {
      await c.api.send(`${base}dl/`, 'f.txt', 'f', 'text/plain');
      expect((await c.api.presignDownload(`${base}dl/f.txt`, 60)).data).toMatchObject({ expiresInSeconds: 3600 });
      for (const minutes of [0, 10081, 'soon']) {
        expect((await errorBody(await c.api.downloadUrl(`${base}dl/f.txt`, minutes), 400, 'VALIDATION_FAILED')).details[0].field).toBe(
          'expirationMinutes',
        );
      }
      // As the reference API: a URL for any valid key, without a lookup; using it answers 404.
      const missing = await c.api.presignDownload(`${base}dl/missing.txt`);
      expect(missing.response.status).toBe(200);
      const { url } = missing.data!;
      expect((await fetch(url)).status).toBe(404);
    });

    it('rejects folder and unsafe keys for upload-url, confirm and download-url (400 naming key)', async () => {
      for (const key of [`${base}dir/`, '../x.txt', '/x.txt', 'a\\x.txt', 'tab\tx.txt']) {
        expect((await errorBody(await c.api.uploadUrl({ key }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.confirm(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.downloadUrl(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
    });

    it('answers 413 to an upload-url request for a file over the limit', async () => {
      await errorBody(await c.api.uploadUrl({ key: `${base}presigned/huge.bin`, size: c.maxUploadBytes + 1 }), 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('what clients of the reference API send', () => {
    it("lists the root for key=/ exactly as for key='' or no key", async () => {
      await c.api.send(undefined, `${label.toLowerCase()}-slash-root.txt`, 'root', 'text/plain');
      const none = await c.api.listOk();
      expect(none.items.map((i) => i.key)).toContain(`${label.toLowerCase()}-slash-root.txt`);
      expect(await c.api.listOk({ key: '/' })).toEqual(none);
      expect(await c.api.listOk({ key: '' })).toEqual(none);
      // A cursor of the root listing goes on with either spelling.
      const first = await c.api.listOk({ key: '/', limit: 1 });
      expect(first.nextCursor).toEqual(expect.any(String));
      expect((await c.api.listOk({ key: '', limit: 1, cursor: first.nextCursor })).items).toEqual([none.items[1]]);
    });

    it('uploads into the root for key=/', async () => {
      const res = await c.api.send('/', `${label.toLowerCase()}-slash-upload.txt`, 'x', 'text/plain');
      expect(res.response.status).toBe(201);
      expect(res.data).toMatchObject({ key: `${label.toLowerCase()}-slash-upload.txt` });
    });

    it('still refuses other absolute directory keys (400 naming key)', async () => {
      for (const key of ['//', '/a/', '/.']) {
        expect((await errorBody(await c.api.list({ key }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
    });
  });

  describe('the reserved staging folder', () => {
    it('refuses an upload URL, a multipart upload, a folder and every other operation in it (400 naming key)', async () => {
      for (const key of ['.docintel-staging/x.bin', '.DOCINTEL-STAGING/x.bin', '.docintel-staging']) {
        expect((await errorBody(await c.api.uploadUrl({ key }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.downloadUrl(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.confirm(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.content(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await c.api.delete(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
      const upload = await errorBody(await c.api.upload('.docintel-staging/', 'x.bin', 'x'), 400, 'VALIDATION_FAILED');
      expect(upload.details[0].field).toBe('key');
      expect((await errorBody(await c.api.createFolder('.docintel-staging/'), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      expect((await errorBody(await c.api.list({ key: '.docintel-staging/' }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      await c.api.send(`${base}staging/`, 'f.txt', 'f', 'text/plain');
      expect((await errorBody(await c.api.rename(`${base}staging/`, '.docintel-staging'), 400, 'VALIDATION_FAILED')).details[0].field).toBe(
        'newName',
      );
    });
  });

  describe('control characters in media types and file names', () => {
    it('refuses CR, LF or another control character in the mediaType of an upload URL (400 naming mediaType)', async () => {
      for (const mediaType of ['text/plain\r\nX-Injected: yes', 'text/plain\n', 'text/\u0000plain', 'text/plain\u0085']) {
        const body = await errorBody(await c.api.uploadUrl({ key: `${base}ctl/a.txt`, mediaType }), 400, 'VALIDATION_FAILED');
        expect(body.details.map((d) => d.field)).toEqual(['mediaType']);
      }
      expect((await c.api.presignUpload({ key: `${base}ctl/a.txt`, mediaType: 'text/plain; charset=utf-8' })).response.status).toBe(200);
    });

    it('refuses a multipart file name with CR, LF or another control character (400 naming file)', async () => {
      const part = (disposition: string, type = 'text/plain') =>
        `--docintel-e2e-raw\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: ${type}\r\n\r\nbody\r\n--docintel-e2e-raw--\r\n`;
      for (const disposition of [
        "filename*=UTF-8''evil%0D%0Aname.txt",
        "filename*=UTF-8''evil%0Aname.txt",
        "filename*=UTF-8''tab%09name.txt",
        "filename*=UTF-8''nel%C2%85name.txt",
        'filename="bell\u0007name.txt"',
      ]) {
        const body = await errorBody(await c.api.uploadRaw(`${base}ctl/`, part(disposition)), 400, 'VALIDATION_FAILED');
        expect({ disposition, fields: body.details.map((d) => d.field) }).toEqual({ disposition, fields: ['file'] });
      }
      // The part's own Content-Type becomes the stored media type: no control characters there either.
      const typed = await errorBody(
        await c.api.uploadRaw(`${base}ctl/`, part('filename="ok.txt"', 'text/plain\u0001x')),
        400,
        'VALIDATION_FAILED',
      );
      expect(typed.details.map((d) => d.field)).toEqual(['file']);
      expect(await c.api.keys(`${base}ctl/`)).toEqual([]);
    });
  });

  describe('namespaces in a provider with a place per namespace', () => {
    const dir = `${base}ns/`;

    it('keeps the same key in two namespaces as two different items', async () => {
      const { a, b } = c.isolated;
      expect((await a.send(dir, 'same.txt', 'from A', 'text/plain')).response.status).toBe(201);
      expect((await b.send(dir, 'same.txt', 'from B, longer', 'text/plain')).response.status).toBe(201);
      expect(await a.text(`${dir}same.txt`)).toBe('from A');
      expect(await b.text(`${dir}same.txt`)).toBe('from B, longer');
      expect((await a.listOk({ key: dir })).items).toEqual([expect.objectContaining({ key: `${dir}same.txt`, size: 6 })]);
      expect((await b.listOk({ key: dir })).items).toEqual([expect.objectContaining({ key: `${dir}same.txt`, size: 14 })]);
    });

    it('never lets B list, read, download, delete, rename or presign what only A has', async () => {
      const { a, b } = c.isolated;
      const key = `${dir}a-only/secret.txt`;
      expect((await a.send(`${dir}a-only/`, 'secret.txt', 'A secret', 'text/plain')).response.status).toBe(201);
      expect(await b.listOk({ key: `${dir}a-only/` })).toEqual({ items: [] });
      expect((await b.listOk({ key: dir })).items.map((i) => i.key)).not.toContain(`${dir}a-only/`);
      await errorBody(await b.content(key), 404, 'NOT_FOUND');
      await errorBody(await b.delete(key), 404, 'NOT_FOUND');
      await errorBody(await b.delete(`${dir}a-only/`), 404, 'NOT_FOUND');
      await errorBody(await b.rename(key, 'stolen.txt'), 404, 'NOT_FOUND');
      await errorBody(await b.confirm(key), 404, 'NOT_FOUND');
      // B's download URL for the key is a URL into B's own part: nothing there.
      const down = await ok(b.presignDownload(key));
      expect((await fetch(down.url)).status).toBe(404);
      // B's upload URL writes into B's part, never over A's file.
      const up = await b.uploadTarget({ key });
      expect((await put(up.url, Buffer.from('overwritten by B'), 'text/plain')).status).toBe(200);
      expect(await a.text(key)).toBe('A secret');
      expect(await b.text(key)).toBe('overwritten by B');
      // A's download URL still gives A's bytes.
      const mine = await ok(a.presignDownload(key));
      expect(await (await fetch(mine.url)).text()).toBe('A secret');
      expect(await a.keys(`${dir}a-only/`)).toEqual([key]);
    });

    it('refuses keys that climb out of the namespace root or are absolute (400 naming key)', async () => {
      const { b } = c.isolated;
      for (const key of ['../acme/x.txt', `../${dir}same.txt`, '/acme/x.txt', '/x.txt', 'a/../../x.txt', '..']) {
        expect((await errorBody(await b.content(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await b.delete(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await b.uploadUrl({ key }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
        expect((await errorBody(await b.downloadUrl(key), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
      for (const key of ['../', '../acme/', '/acme/']) {
        expect((await errorBody(await b.list({ key }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      }
    });

    it('does not carry a cursor from one namespace over to the other', async () => {
      const { a, b } = c.isolated;
      await a.send(`${dir}paged/`, '1.txt', '1', 'text/plain');
      await a.send(`${dir}paged/`, '2.txt', '2', 'text/plain');
      await b.send(`${dir}paged/`, '1.txt', '1', 'text/plain');
      await b.send(`${dir}paged/`, '2.txt', '2', 'text/plain');
      const first = await a.listOk({ key: `${dir}paged/`, limit: 1 });
      const body = await errorBody(await b.list({ key: `${dir}paged/`, limit: 1, cursor: first.nextCursor }), 400, 'VALIDATION_FAILED');
      expect(body.details[0].field).toBe('cursor');
    });

    it('names the namespace in the item events', async () => {
      const { a } = c.isolated;
      await a.send(`${dir}events/`, 'e.txt', 'e', 'text/plain');
      const created = await c.events.waitFor(
        (e) =>
          e.subject === 'events.storage.item.created' && e.payload.key === `${dir}events/e.txt` && e.payload.providerId === a.providerId,
      );
      expect(created.payload.namespace).toBe(NAMESPACE);
    });
  });

  describe('permissions', () => {
    it('answers 401 without a token, on every endpoint', async () => {
      for (const res of [
        await c.anonymous.list(),
        await c.anonymous.createFolder('x/'),
        await c.anonymous.upload('', 'x.txt', 'x'),
        await c.anonymous.delete('x.txt'),
        await c.anonymous.rename('x.txt', 'y.txt'),
        await c.anonymous.uploadUrl({ key: 'x.txt' }),
        await c.anonymous.confirm('x.txt'),
        await c.anonymous.downloadUrl('x.txt'),
        await c.anonymous.content('x.txt'),
      ]) {
        await errorBody(res, 401, 'UNAUTHENTICATED');
      }
    });

    it('answers 403 for a provider the namespace may not use, on every endpoint', async () => {
      for (const res of [
        await c.hidden.list(),
        await c.hidden.createFolder('x/'),
        await c.hidden.upload('', 'x.txt', 'x'),
        await c.hidden.delete('x.txt'),
        await c.hidden.rename('x.txt', 'y.txt'),
        await c.hidden.uploadUrl({ key: 'x.txt' }),
        await c.hidden.confirm('x.txt'),
        await c.hidden.downloadUrl('x.txt'),
        await c.hidden.content('x.txt'),
      ]) {
        await errorBody(res, 403, 'FORBIDDEN');
      }
    });
  });

  describe('events', () => {
    it('publishes item.created, item.renamed and item.deleted on JetStream, once per change', async () => {
      const dir = `${base}events/`;
      const pid = c.api.providerId;
      await c.api.send(dir, 'one.txt', 'one', 'text/plain');
      await c.api.folder(`${dir}sub/`);
      await c.api.renameTo(`${dir}one.txt`, 'two.txt');
      await c.api.remove(`${dir}two.txt`);
      const target = await c.api.uploadTarget({ key: `${dir}pre.txt` });
      await put(target.url, Buffer.from('pre'), 'text/plain');
      await c.api.confirmUpload(`${dir}pre.txt`);

      const created = await c.events.waitFor((e) => e.subject === 'events.storage.item.created' && e.payload.key === `${dir}one.txt`);
      expect(created.payload).toMatchObject({
        providerId: pid,
        type: 'FILE',
        size: 3,
        mediaType: 'text/plain',
        occurredAt: expect.any(Number),
      });
      await c.events.waitFor(
        (e) => e.subject === 'events.storage.item.created' && e.payload.key === `${dir}sub/` && e.payload.type === 'FOLDER',
      );
      const renamed = await c.events.waitFor((e) => e.subject === 'events.storage.item.renamed' && e.payload.key === `${dir}two.txt`);
      expect(renamed.payload).toMatchObject({ providerId: pid, previousKey: `${dir}one.txt`, type: 'FILE' });
      await c.events.waitFor((e) => e.subject === 'events.storage.item.deleted' && e.payload.key === `${dir}two.txt`);
      await c.events.waitFor((e) => e.subject === 'events.storage.item.created' && e.payload.key === `${dir}pre.txt`);

      const all = (await c.events.all()).filter((e) => String(e.payload.key).startsWith(dir));
      expect(all.map((e) => `${e.subject.split('.').pop()} ${String(e.payload.key).slice(dir.length)}`)).toEqual([
        'created one.txt',
        'created sub/',
        'renamed two.txt',
        'deleted two.txt',
        'created pre.txt',
      ]);
      for (const e of all) expect(e.msgId).toEqual(expect.any(String));
    });
  });
}

import { createDocintelClient } from './client';
import { DocintelApiError } from './errors';
import { errorBody, fakeFetch, jsonResponse, providerItem } from './testing/fake-fetch';
import { uploadMultipart, uploadViaPresignedUrl } from './upload';

const BASE = 'http://gateway.test';
const ITEMS = '/api/core/providers/prov/items';
const PUT_URL = 'https://bucket.s3.test/docs/report.json?X-Amz-Signature=abc';

describe('uploadViaPresignedUrl', () => {
  it('asks for an upload URL, PUTs the bytes there without the token, then confirms', async () => {
    const confirmed = providerItem('docs/report.json', { size: 13, mediaType: 'application/json' });
    const server = fakeFetch({
      [`POST ${ITEMS}/upload-url`]: () => jsonResponse({ url: PUT_URL, expiresInSeconds: 900, supported: true }),
      'PUT /docs/report.json': () => new Response(null, { status: 200 }),
      [`POST ${ITEMS}/confirm`]: () => jsonResponse(confirmed),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 'secret', namespace: 'acme', fetch: server.fetch });

    const item = await uploadViaPresignedUrl(api, {
      providerId: 'prov',
      key: 'docs/report.json',
      body: '{"a":"hello"}',
      mediaType: 'application/json',
    });

    expect(item).toEqual(confirmed);
    const [ask, put, confirm] = server.seen;
    expect([ask, put, confirm].map((r) => `${r.method} ${r.url.href}`)).toEqual([
      `POST ${BASE}${ITEMS}/upload-url`,
      `PUT ${PUT_URL}`,
      `POST ${BASE}${ITEMS}/confirm`,
    ]);
    expect(JSON.parse(ask.body as string)).toEqual({ key: 'docs/report.json', size: 13, mediaType: 'application/json' });
    expect(ask.headers.get('authorization')).toBe('Bearer secret');
    // The storage backend gets the bytes and the media type, never the bearer token or the namespace.
    expect(put.body).toBe('{"a":"hello"}');
    expect(put.headers.get('content-type')).toBe('application/json');
    expect(put.headers.has('authorization')).toBe(false);
    expect(put.headers.has('x-namespace')).toBe(false);
    expect(JSON.parse(confirm.body as string)).toEqual({ key: 'docs/report.json' });
  });

  it("takes a Blob's own type and size, and sends octet-stream when no type is known", async () => {
    const server = fakeFetch({
      [`POST ${ITEMS}/upload-url`]: () => jsonResponse({ url: `${BASE}/api/storage/transfer/g1`, expiresInSeconds: 900, supported: true }),
      'PUT /api/storage/transfer/g1': () => jsonResponse(providerItem('x')),
      [`POST ${ITEMS}/confirm`]: () => jsonResponse(providerItem('x')),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    await uploadViaPresignedUrl(api, { providerId: 'prov', key: 'a.csv', body: new Blob(['a,b\n1,2\n'], { type: 'text/csv' }) });
    await uploadViaPresignedUrl(api, { providerId: 'prov', key: 'b.bin', body: new Uint8Array([1, 2, 3]) });

    expect(JSON.parse(server.seen[0].body as string)).toEqual({ key: 'a.csv', size: 8, mediaType: 'text/csv' });
    expect(server.seen[1].headers.get('content-type')).toBe('text/csv');
    expect(JSON.parse(server.seen[3].body as string)).toEqual({ key: 'b.bin', size: 3 });
    expect(server.seen[4].headers.get('content-type')).toBe('application/octet-stream');
  });

  it('falls back to the multipart upload when the provider cannot presign', async () => {
    const uploaded = providerItem('docs/deep/a.txt');
    const server = fakeFetch({
      [`POST ${ITEMS}/upload-url`]: () => jsonResponse({ expiresInSeconds: 0, supported: false }),
      [`POST ${ITEMS}`]: () => jsonResponse(uploaded, 201),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    await expect(
      uploadViaPresignedUrl(api, { providerId: 'prov', key: 'docs/deep/a.txt', body: 'hello', mediaType: 'text/plain' }),
    ).resolves.toEqual(uploaded);

    const upload = server.seen[1];
    expect(upload.url.search).toBe('?key=docs%2Fdeep%2F');
    const file = (upload.body as FormData).get('file') as File;
    expect(file.name).toBe('a.txt');
    expect(file.type).toBe('text/plain');
    expect(await file.text()).toBe('hello');
  });

  it('refuses the fallback when asked to', async () => {
    const server = fakeFetch({ [`POST ${ITEMS}/upload-url`]: () => jsonResponse({ expiresInSeconds: 0, supported: false }) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    await expect(uploadViaPresignedUrl(api, { providerId: 'prov', key: 'a.txt', body: 'x' }, { multipartFallback: false })).rejects.toThrow(
      'Provider prov does not support presigned uploads',
    );
    expect(server.seen).toHaveLength(1);
  });

  it('fails with a DocintelApiError when the PUT is refused, without confirming', async () => {
    const server = fakeFetch({
      [`POST ${ITEMS}/upload-url`]: () => jsonResponse({ url: PUT_URL, expiresInSeconds: 900, supported: true }),
      'PUT /docs/report.json': () =>
        new Response('<Error><Code>SignatureDoesNotMatch</Code></Error>', { status: 403, statusText: 'Forbidden' }),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const err = await uploadViaPresignedUrl(api, { providerId: 'prov', key: 'docs/report.json', body: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocintelApiError);
    expect(err).toMatchObject({ status: 403, code: 'UNKNOWN', message: expect.stringContaining('SignatureDoesNotMatch') });
    expect(server.seen).toHaveLength(2);
  });

  it('fails with the error body of the upload-url request', async () => {
    const server = fakeFetch({ [`POST ${ITEMS}/upload-url`]: () => jsonResponse(errorBody(413, 'PAYLOAD_TOO_LARGE', 'Too large'), 413) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    await expect(uploadViaPresignedUrl(api, { providerId: 'prov', key: 'big.bin', body: 'x' })).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});

describe('uploadMultipart', () => {
  it('posts a multipart part `file` named after the key into the root for a key without a folder', async () => {
    const server = fakeFetch({ [`POST ${ITEMS}`]: () => jsonResponse(providerItem('a.txt'), 201) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    await uploadMultipart(api, { providerId: 'prov', key: 'a.txt', body: new Uint8Array([104, 105]) });

    const [req] = server.seen;
    expect(req.url.search).toBe('?key=');
    expect(req.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.headers.get('authorization')).toBe('Bearer t');
    const file = (req.body as FormData).get('file') as File;
    expect([file.name, await file.text()]).toEqual(['a.txt', 'hi']);
  });
});

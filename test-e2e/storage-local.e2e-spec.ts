import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LOCAL_STAGING_DIR } from '@docintel/storage';
import { deriveKey } from '../apps/storage-service/src/items/signed-token';
import { TransferGrantSigner } from '../apps/storage-service/src/items/transfer-grant';
import { itemsContract, put, type ContractContext } from './storage-contract';
import { ok } from './support/client';
import { errorBody } from './support/http';
import {
  EventLog,
  eventually,
  ItemsApi,
  MAX_UPLOAD_BYTES,
  NAMESPACE,
  OTHER_NAMESPACE,
  SIGNING_SECRET,
  startStorageStack,
  type StorageStack,
} from './storage-support';

const DOCS_ID = '0b6a4f0e-6f1e-4c55-9a57-3f1c2b7d8e01';
const PRIVATE_ID = '0b6a4f0e-6f1e-4c55-9a57-3f1c2b7d8e02';
const ISOLATED_ID = '0b6a4f0e-6f1e-4c55-9a57-3f1c2b7d8e03';

describe('provider items on a LOCAL provider', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'docintel-local-items-'));
  const docsRoot = join(scratch, 'docs');
  const privateRoot = join(scratch, 'private');
  const isolatedRoot = join(scratch, 'isolated');
  const outside = join(scratch, 'outside');
  let s: StorageStack;
  let api: ItemsApi;
  let events: EventLog;

  beforeAll(async () => {
    mkdirSync(docsRoot, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'outside the root');
    s = await startStorageStack('storagelocal', [
      { id: DOCS_ID, name: 'Docs', type: 'LOCAL', root: docsRoot },
      { id: PRIVATE_ID, name: 'Private', type: 'LOCAL', root: privateRoot, namespaces: [OTHER_NAMESPACE] },
      { id: ISOLATED_ID, name: 'Per namespace', type: 'LOCAL', root: isolatedRoot, namespaceRoot: '{namespace}' },
    ]);
    api = new ItemsApi(s.stack, DOCS_ID, s.token);
    events = await EventLog.open(s.stack);
  });

  afterAll(async () => {
    await events?.close();
    await s?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  itemsContract('LOCAL', (): ContractContext => ({
    api,
    anonymous: new ItemsApi(s.stack, DOCS_ID, undefined),
    hidden: new ItemsApi(s.stack, PRIVATE_ID, s.token),
    events,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    seed: async (files) => {
      for (const f of files) {
        mkdirSync(dirname(join(docsRoot, f.key)), { recursive: true });
        writeFileSync(join(docsRoot, f.key), f.body);
      }
    },
    isolated: { a: new ItemsApi(s.stack, ISOLATED_ID, s.token), b: new ItemsApi(s.stack, ISOLATED_ID, s.otherToken) },
  }));

  it('keeps each namespace of a per-namespace provider in its own directory under the root', async () => {
    const a = new ItemsApi(s.stack, ISOLATED_ID, s.token);
    const b = new ItemsApi(s.stack, ISOLATED_ID, s.otherToken);
    expect((await a.send('disk/', 'same.txt', 'A bytes', 'text/plain')).response.status).toBe(201);
    expect((await b.send('disk/', 'same.txt', 'B bytes', 'text/plain')).response.status).toBe(201);
    expect(readFileSync(join(isolatedRoot, NAMESPACE, 'disk', 'same.txt'), 'utf8')).toBe('A bytes');
    expect(readFileSync(join(isolatedRoot, OTHER_NAMESPACE, 'disk', 'same.txt'), 'utf8')).toBe('B bytes');
    expect(existsSync(join(isolatedRoot, 'disk'))).toBe(false);
    // A link planted in A's directory towards B's is not followed: the namespace root is the boundary.
    symlinkSync(join(isolatedRoot, OTHER_NAMESPACE, 'disk'), join(isolatedRoot, NAMESPACE, 'to-b'));
    expect(await a.keys()).not.toContain('to-b/');
    await errorBody(await a.content('to-b/same.txt'), 404, 'NOT_FOUND');
    await errorBody(await a.delete('to-b/same.txt'), 404, 'NOT_FOUND');
    expect(readFileSync(join(isolatedRoot, OTHER_NAMESPACE, 'disk', 'same.txt'), 'utf8')).toBe('B bytes');
  });

  it('lets the namespace the provider is shared with use it', async () => {
    const other = new ItemsApi(s.stack, PRIVATE_ID, s.otherToken);
    expect((await other.send('', 'mine.txt', 'globex only', 'text/plain')).response.status).toBe(201);
    expect(await other.keys()).toEqual(['mine.txt']);
    expect(readFileSync(join(privateRoot, 'mine.txt'), 'utf8')).toBe('globex only');
  });

  it('answers 404 for a provider that does not exist', async () => {
    await errorBody(await new ItemsApi(s.stack, '0b6a4f0e-6f1e-4c55-9a57-3f1c2b7d8eff', s.token).list(), 404, 'NOT_FOUND');
    // An id that is not a UUID names no provider: 400 naming the parameter.
    const bad = await errorBody(await new ItemsApi(s.stack, 'not-a-uuid', s.token).list(), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([{ field: 'providerId', problem: 'must be a UUID' }]);
  });

  it('writes the bytes under the provider root, as the key says', async () => {
    expect((await api.send('on-disk/', 'hello.txt', 'hello disk', 'text/plain')).response.status).toBe(201);
    expect(readFileSync(join(docsRoot, 'on-disk', 'hello.txt'), 'utf8')).toBe('hello disk');
    expect((await api.folder('on-disk/empty/')).response.status).toBe(201);
    expect(existsSync(join(docsRoot, 'on-disk', 'empty'))).toBe(true);
  });

  describe('never leaves its root', () => {
    beforeAll(() => {
      symlinkSync(outside, join(docsRoot, 'escape'));
      symlinkSync(join(outside, 'secret.txt'), join(docsRoot, 'escape-file.txt'));
    });

    it('does not list, read or link out through a symlink planted in the root', async () => {
      const keys = await api.keys();
      expect(keys).not.toContain('escape/');
      expect(keys).not.toContain('escape-file.txt');
      expect(await api.listOk({ key: 'escape/' })).toEqual({ items: [] });
      await errorBody(await api.content('escape/secret.txt'), 404, 'NOT_FOUND');
      await errorBody(await api.content('escape-file.txt'), 404, 'NOT_FOUND');
      // A download URL is presigned without a lookup (as the reference API does); using it gives 404.
      const link = await ok(api.presignDownload('escape/secret.txt'));
      expect((await fetch(link.url)).status).toBe(404);
    });

    it('does not write, rename or delete through it', async () => {
      const upload = await api.send('escape/', 'planted.txt', 'x', 'text/plain');
      expect(upload.response.status).toBeGreaterThanOrEqual(400);
      expect((await api.folder('escape/new/')).response.status).toBeGreaterThanOrEqual(400);
      await errorBody(await api.rename('escape/secret.txt', 'stolen.txt'), 404, 'NOT_FOUND');
      await errorBody(await api.delete('escape/secret.txt'), 404, 'NOT_FOUND');
      const target = await api.uploadTarget({ key: 'escape/presigned.txt' });
      expect((await put(target.url, Buffer.from('x'), 'text/plain')).status).toBeGreaterThanOrEqual(400);
      expect(readdirSync(outside)).toEqual(['secret.txt']);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside the root');
    });

    it('refuses keys that name the staging area (400)', async () => {
      expect((await errorBody(await api.list({ key: `${LOCAL_STAGING_DIR}/` }), 400, 'VALIDATION_FAILED')).details[0].field).toBe('key');
      expect((await api.keys()).some((k) => k.startsWith(LOCAL_STAGING_DIR))).toBe(false);
    });
  });

  describe('presigned URLs served by docintel', () => {
    const signer = new TransferGrantSigner(deriveKey(SIGNING_SECRET, 'transfer-grant'));

    it('points upload and download URLs at the gateway public URL', async () => {
      const up = await api.uploadTarget({ key: 'signed/a.txt' });
      expect(up.url.startsWith(`${s.stack.baseUrl}/api/storage/transfer/`)).toBe(true);
    });

    it('answers 403 to a tampered or expired URL, and to a download URL used for an upload', async () => {
      expect((await api.send('signed/', 'b.txt', 'bbb', 'text/plain')).response.status).toBe(201);
      const { url } = await ok(api.presignDownload('signed/b.txt'));
      const [body, sig] = url.slice(url.lastIndexOf('/') + 1).split('.');
      const wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      const origin = url.slice(0, url.lastIndexOf('/') + 1);
      const tampered = `${origin}${Buffer.from(JSON.stringify({ ...wire, k: 'signed/other.txt' })).toString('base64url')}.${sig}`;
      await errorBody(await fetch(tampered), 403, 'FORBIDDEN');
      await errorBody(await fetch(`${url.slice(0, -2)}xx`), 403, 'FORBIDDEN');
      const expired = signer.sign({
        providerId: DOCS_ID,
        namespace: NAMESPACE,
        key: 'signed/b.txt',
        op: 'get',
        purpose: 'presigned',
        expiresAt: Math.floor(Date.now() / 1000) - 1,
      });
      const expiredRes = await fetch(`${origin}${expired}`);
      expect((await errorBody(expiredRes, 403, 'FORBIDDEN')).message).toMatch(/expired/);
      expect((await put(url, Buffer.from('overwrite'), 'text/plain')).status).toBe(403);
      expect(await api.text('signed/b.txt')).toBe('bbb');
      // The same key signed properly and not yet expired works: the 403s above were about the URL alone.
      const fresh = signer.sign({
        providerId: DOCS_ID,
        namespace: NAMESPACE,
        key: 'signed/b.txt',
        op: 'get',
        purpose: 'presigned',
        expiresAt: Math.floor(Date.now() / 1000) + 60,
      });
      expect(await (await fetch(`${origin}${fresh}`)).text()).toBe('bbb');
    });

    it('refuses a URL issued to a namespace the provider is not shared with', async () => {
      const grant = signer.sign({
        providerId: PRIVATE_ID,
        namespace: NAMESPACE,
        key: 'mine.txt',
        op: 'get',
        purpose: 'presigned',
        expiresAt: Math.floor(Date.now() / 1000) + 60,
      });
      await errorBody(await fetch(`${s.stack.baseUrl}/api/storage/transfer/${grant}`), 403, 'FORBIDDEN');
    });

    it('serves Range requests on a download URL', async () => {
      await api.send('signed/', 'range.txt', '0123456789', 'text/plain');
      const { url } = await ok(api.presignDownload('signed/range.txt'));
      const res = await fetch(url, { headers: { range: 'bytes=2-4' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('bytes 2-4/10');
      expect(await res.text()).toBe('234');
    });

    it('refuses a presigned PUT larger than the size asked for (413), storing nothing', async () => {
      const { url } = await api.uploadTarget({ key: 'signed/sized.bin', size: 10 });
      expect((await put(url, Buffer.alloc(11), 'application/octet-stream')).status).toBe(413);
      await errorBody(await api.confirm('signed/sized.bin'), 404, 'NOT_FOUND');
      expect((await put(url, Buffer.alloc(10), 'application/octet-stream')).status).toBe(200);
      expect((await api.confirmUpload('signed/sized.bin')).response.status).toBe(200);
    });
  });

  describe('an upload that breaks off', () => {
    const staging = join(docsRoot, LOCAL_STAGING_DIR);
    const stagingEmpty = () => !existsSync(staging) || readdirSync(staging).length === 0;

    /**
     * Sends a request head and part of its announced body over a raw socket, waits until storage
     * is writing the upload into its staging area, then drops the connection.
     */
    async function sendPartAndDrop(
      method: string,
      path: string,
      headers: Record<string, string>,
      part: Buffer,
      announced: number,
    ): Promise<void> {
      const { port } = new URL(s.stack.baseUrl);
      const socket = netConnect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Content-Length: ${announced}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      socket.write(part);
      await eventually(() => existsSync(staging) && readdirSync(staging).length > 0, 'the upload reaching the staging area');
      socket.destroy();
    }

    it('multipart: the item never appears and the staging area is empty', async () => {
      const boundary = '----docintel-e2e-boundary';
      const preamble = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="partial.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const half = Buffer.concat([Buffer.from(preamble), Buffer.alloc(256 * 1024, 1)]);
      await sendPartAndDrop(
        'POST',
        api.path('', { key: 'broken/' }),
        { Authorization: `Bearer ${s.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        half,
        half.length * 2,
      );
      await eventually(stagingEmpty, 'the staging area emptying');
      expect(await api.keys('broken/')).toEqual([]);
      await errorBody(await api.content('broken/partial.bin'), 404, 'NOT_FOUND');
      expect(s.stack.apps.get('storage-service')?.process.exitCode).toBeNull();
    });

    it('presigned PUT: the item never appears and the staging area is empty', async () => {
      const { url } = await api.uploadTarget({ key: 'broken/presigned.bin' });
      const path = url.slice(s.stack.baseUrl.length);
      await sendPartAndDrop('PUT', path, { 'Content-Type': 'application/octet-stream' }, Buffer.alloc(256 * 1024, 2), 512 * 1024);
      await eventually(stagingEmpty, 'the staging area emptying');
      await errorBody(await api.confirm('broken/presigned.bin'), 404, 'NOT_FOUND');
      expect(await api.keys('broken/')).toEqual([]);
    });
  });
});

/**
 * Storage hardening, end to end on the default configuration (no PROVIDERS_FILE, no
 * STORAGE_SIGNING_SECRET): every namespace in its own part of the default provider, a signing
 * secret nobody can recompute, and multipart uploads that are cut short or abandoned.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { TestStack } from '@docintel/testing';
import { deriveKey } from '../apps/storage-service/src/items/signed-token';
import { TransferGrantSigner } from '../apps/storage-service/src/items/transfer-grant';
import { put } from './storage-contract';
import { eventually, ItemsApi } from './storage-support';
import { errorBody, type ErrorBody } from './support/http';

const ACME = 'acme';
const GLOBEX = 'globex';
const BOUNDARY = 'XB';

interface RawResponse {
  status: number;
  body: string;
  ms: number;
}

describe('storage hardening on the default configuration', () => {
  let stack: TestStack;
  let acmeToken: string;
  let globexToken: string;
  let providerId: string;
  let acme: ItemsApi;
  let globex: ItemsApi;
  let storageRoot: string;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'hardenstorage', apps: ['storage-service', 'api-gateway'] });
    storageRoot = stack.env.STORAGE_ROOT;
    acmeToken = await stack.token(ACME, 'alice@acme.test');
    globexToken = await stack.token(GLOBEX, 'bob@globex.test');
    const page = (await (await stack.request('/api/core/providers', { token: acmeToken })).json()) as {
      data: Array<{ id: { id: string } }>;
    };
    providerId = page.data[0].id.id;
    acme = new ItemsApi(stack, providerId, acmeToken);
    globex = new ItemsApi(stack, providerId, globexToken);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const staging = (namespace: string) => join(storageRoot, namespace, '.docintel-staging');
  const stagingEmpty = (namespace = ACME) => !existsSync(staging(namespace)) || readdirSync(staging(namespace)).length === 0;

  describe('namespaces on the default LOCAL provider', () => {
    it('shows both namespaces the provider, and gives each its own directory under STORAGE_ROOT', async () => {
      const page = (await (await stack.request('/api/core/providers', { token: globexToken })).json()) as {
        data: Array<{ id: { id: string } }>;
      };
      expect(page.data.map((p) => p.id.id)).toEqual([providerId]);
      expect((await acme.upload('shared/', 'report.txt', 'acme report', 'text/plain')).status).toBe(201);
      expect(readFileSync(join(storageRoot, ACME, 'shared', 'report.txt'), 'utf8')).toBe('acme report');
      expect(existsSync(join(storageRoot, 'shared'))).toBe(false);
    });

    it('never lets another namespace list, read, download, delete, rename or presign an item', async () => {
      expect(await globex.keys()).not.toContain('shared/');
      expect(await globex.listOk({ key: 'shared/' })).toEqual({ items: [] });
      await errorBody(await globex.content('shared/report.txt'), 404, 'NOT_FOUND');
      await errorBody(await globex.delete('shared/report.txt'), 404, 'NOT_FOUND');
      await errorBody(await globex.delete('shared/'), 404, 'NOT_FOUND');
      await errorBody(await globex.rename('shared/report.txt', 'mine.txt'), 404, 'NOT_FOUND');
      await errorBody(await globex.confirm('shared/report.txt'), 404, 'NOT_FOUND');
      const link = (await (await globex.downloadUrl('shared/report.txt')).json()) as { url: string };
      await errorBody(await fetch(link.url), 404, 'NOT_FOUND');
      const up = (await (await globex.uploadUrl({ key: 'shared/report.txt' })).json()) as { url: string };
      expect((await put(up.url, Buffer.from('globex report'), 'text/plain')).status).toBe(200);
      // Two objects under one key, one per namespace; acme's is untouched.
      expect(await (await acme.content('shared/report.txt')).text()).toBe('acme report');
      expect(await (await globex.content('shared/report.txt')).text()).toBe('globex report');
      expect(readFileSync(join(storageRoot, GLOBEX, 'shared', 'report.txt'), 'utf8')).toBe('globex report');
    });
  });

  describe('the signing secret', () => {
    const grantFor = (signer: TransferGrantSigner, key: string) =>
      signer.sign({ providerId, namespace: ACME, key, op: 'get', purpose: 'presigned', expiresAt: Math.floor(Date.now() / 1000) + 600 });

    it('is not derived from DATABASE_URL: a URL signed with a key recomputed from it is refused (403)', async () => {
      for (const databaseUrl of [stack.env.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/docintel']) {
        const guessed = createHash('sha256').update(`docintel:dev-signing-secret:${databaseUrl}`).digest('hex');
        const forged = grantFor(new TransferGrantSigner(deriveKey(guessed, 'transfer-grant')), 'shared/report.txt');
        await errorBody(await fetch(`${stack.baseUrl}/api/storage/transfer/${forged}`), 403, 'FORBIDDEN');
      }
    });

    it('is generated once, stored in the storage schema, and shared by every replica', async () => {
      const db = new Client({ connectionString: stack.env.DATABASE_URL });
      await db.connect();
      try {
        const rows = (await db.query(`SELECT value FROM storage.secrets`)).rows as Array<{ value: string }>;
        expect(rows).toHaveLength(1);
        expect(rows[0].value).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        await db.end();
      }
      // A second replica starts, reads the same secret and accepts a URL the first one signed.
      const replica = await stack.startApp('storage-service');
      const { url } = (await (await acme.downloadUrl('shared/report.txt')).json()) as { url: string };
      const grant = url.slice(url.lastIndexOf('/') + 1);
      const res = await fetch(`http://127.0.0.1:${replica.port}/internal/transfer/${grant}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('acme report');
    });
  });

  describe('numbers and grants that are not what they look like', () => {
    it('refuses limit and expirationMinutes that are not plain decimal digits (1e3, 0x10, +5)', async () => {
      for (const limit of ['1e3', '0x10', '+5']) {
        const body = await errorBody(
          await stack.request(acme.path('', { key: '', limit }), { token: acmeToken }),
          400,
          'VALIDATION_FAILED',
        );
        expect(body.details).toContainEqual({ field: 'limit', problem: 'must be an integer' });
      }
      for (const minutes of ['1e3', '0x10', '+5']) {
        const body = await errorBody(await acme.downloadUrl('a.txt', minutes), 400, 'VALIDATION_FAILED');
        expect(body.details).toContainEqual({ field: 'expirationMinutes', problem: 'must be an integer' });
      }
    });

    it('answers 403, not 500, to a transfer URL whose grant is a dot segment', async () => {
      const { port } = new URL(stack.baseUrl);
      for (const method of ['GET', 'PUT']) {
        const raw = await new Promise<string>((resolve, reject) => {
          const socket = netConnect(Number(port), '127.0.0.1');
          let text = '';
          socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
          socket.on('error', reject);
          socket.on('close', () => resolve(text));
          const body = method === 'PUT' ? 'x' : '';
          socket.end(
            `${method} /api/storage/transfer/.. HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
        });
        expect(raw).toMatch(/^HTTP\/1\.1 403 /);
        expect(raw).toContain('"code":"FORBIDDEN"');
      }
    });
  });

  describe('multipart uploads that end early or are abandoned', () => {
    const uploadPath = (directory: string) => acme.path('', { key: directory });

    /** Opens a socket to the gateway and sends a request head; resolves with the socket and its eventual response. */
    async function open(directory: string, contentLength: number): Promise<{ socket: Socket; response: Promise<RawResponse> }> {
      const { port } = new URL(stack.baseUrl);
      const socket = netConnect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const started = Date.now();
      const response = new Promise<RawResponse>((resolve) => {
        let raw = '';
        socket.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
          resolve({ status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4), ms: Date.now() - started });
        });
      });
      socket.write(
        [
          `POST ${uploadPath(directory)} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          `Authorization: Bearer ${acmeToken}`,
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
          `Content-Length: ${contentLength}`,
          'Connection: close',
          '',
          '',
        ].join('\r\n'),
      );
      return { socket, response };
    }

    const preamble = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`;

    /** Empty now and still empty a moment later: no transfer to storage was left open. */
    async function noTransferLeftOpen(): Promise<void> {
      await eventually(() => stagingEmpty(), 'the staging area emptying');
      await new Promise((r) => setTimeout(r, 1500));
      expect(stagingEmpty()).toBe(true);
    }

    /** The response, or a failure when none comes within `ms` (the old behaviour: 89 s, then 500). */
    const within = async (response: Promise<RawResponse>, ms: number): Promise<RawResponse> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      });
      try {
        return await Promise.race([response, late]);
      } finally {
        clearTimeout(timer);
      }
    };

    it('answers 400 naming file as soon as the body ends without its closing boundary, and stores nothing', async () => {
      const body = `${preamble('t.txt')}hello`;
      const { socket, response } = await open('cut/', Buffer.byteLength(body));
      socket.write(body);
      const res = await within(response, 5_000);
      expect(res.status).toBe(400);
      expect(res.ms).toBeLessThan(3_000);
      const error = JSON.parse(res.body) as ErrorBody;
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(error.details.map((d) => d.field)).toEqual(['file']);
      await noTransferLeftOpen();
      await errorBody(await acme.content('cut/t.txt'), 404, 'NOT_FOUND');
      expect(await acme.keys('cut/')).toEqual([]);
    });

    it('answers 400 as well when a large file part is cut short, the transfer to storage torn down', async () => {
      const head = preamble('big.bin');
      const part = Buffer.concat([Buffer.from(head), Buffer.alloc(300 * 1024, 7)]);
      const { socket, response } = await open('cut/', part.length);
      socket.write(part);
      const res = await within(response, 5_000);
      expect(res.status).toBe(400);
      expect((JSON.parse(res.body) as ErrorBody).details.map((d) => d.field)).toEqual(['file']);
      await noTransferLeftOpen();
      await errorBody(await acme.content('cut/big.bin'), 404, 'NOT_FOUND');
    });

    it('tears the transfer down when the client goes away in the middle of the file', async () => {
      const part = Buffer.concat([Buffer.from(preamble('gone.bin')), Buffer.alloc(256 * 1024, 1)]);
      const { socket } = await open('gone/', part.length * 4);
      socket.write(part);
      // Storage is writing the upload into the namespace's staging area: the transfer is open.
      await eventually(() => !stagingEmpty(), 'the upload reaching the staging area');
      socket.destroy();
      await noTransferLeftOpen();
      await errorBody(await acme.content('gone/gone.bin'), 404, 'NOT_FOUND');
    });

    it('never opens (or leaves open) a transfer when the client goes away before storage was even asked', async () => {
      for (let i = 0; i < 5; i++) {
        const part = Buffer.from(`${preamble(`early-${i}.bin`)}${'x'.repeat(100)}`);
        const { socket } = await open('early/', part.length + 1_000_000);
        socket.write(part);
        socket.destroy();
      }
      await noTransferLeftOpen();
      expect(await acme.keys('early/')).toEqual([]);
    });

    it('keeps serving: a whole upload still works afterwards', async () => {
      expect((await acme.upload('after/', 'ok.txt', 'fine', 'text/plain')).status).toBe(201);
      expect(await (await acme.content('after/ok.txt')).text()).toBe('fine');
      expect(stack.apps.get('storage-service')?.process.exitCode).toBeNull();
      expect(stack.apps.get('api-gateway')?.process.exitCode).toBeNull();
    });
  });
});

import { randomBytes } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { startS3Server, type TestS3Server } from '@docintel/testing';
import type { StorageDriver } from './driver';
import { describeDriverContract, MIB, readAll, streamOf, text } from './driver-contract';
import { createDriver } from './factory';
import { S3Driver } from './s3-driver';

/** A plain HTTP request (node:http), so virtual-host URLs can be sent through a custom agent. */
function httpCall(url: string, opts: { method: string; body?: Buffer; agent?: Agent }): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: opts.method, agent: opts.agent, headers: opts.body ? { 'Content-Length': opts.body.length } : {} },
      (res: IncomingMessage) => {
        readAll(res).then((body) => resolve({ status: res.statusCode ?? 0, body }), reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('S3Driver (real S3 server)', () => {
  let s3: TestS3Server;
  let bucketCount = 0;
  let bucket: string;
  let driver: StorageDriver;

  const settings = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    bucketName: bucket,
    region: s3.region,
    endpoint: s3.endpoint,
    pathStyle: true,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    ...extra,
  });

  beforeAll(async () => {
    s3 = await startS3Server();
  });

  afterAll(async () => {
    await s3?.stop();
  });

  beforeEach(async () => {
    bucket = `docintel-${++bucketCount}-${randomBytes(3).toString('hex')}`;
    await s3.createBucket(bucket);
    driver = createDriver('S3', settings());
  });

  describe('the driver contract', () => {
    describeDriverContract({
      driver: () => driver,
      // Parts of a multipart upload that was neither completed nor aborted.
      leftovers: () => s3.pendingUploads(bucket),
      // Unknown length: one part is held while the rest streams. The test server runs in this process too.
      largeWrite: { announceSize: false, maxRssGrowth: 128 * MIB },
    });
  });

  describe('content type', () => {
    it('keeps the content type written, in the entry, in stat and through a rename', async () => {
      const data = randomBytes(200_000);
      const entry = await driver.write('reports/2024/q1.pdf', streamOf(data), { contentType: 'application/pdf', size: data.length });
      expect(entry).toMatchObject({ key: 'reports/2024/q1.pdf', type: 'FILE', size: data.length, contentType: 'application/pdf' });
      expect(await driver.stat('reports/2024/q1.pdf')).toMatchObject({ type: 'FILE', size: data.length, contentType: 'application/pdf' });
      await driver.write('in/draft.txt', streamOf('text'), { contentType: 'text/plain' });
      expect(await driver.rename('in/draft.txt', 'in/final.txt')).toMatchObject({
        key: 'in/final.txt',
        type: 'FILE',
        size: 4,
        contentType: 'text/plain',
      });
      expect(await driver.stat('in/draft.txt')).toBeNull();
      expect(await text(driver, 'in/final.txt')).toBe('text');
    });
  });

  describe('presigned URLs through a real HTTP client', () => {
    it('PUT to an upload URL stores the bytes; GET from a download URL returns them', async () => {
      const url = await driver.presignUpload('direct/upload me.pdf', 300, 'application/pdf');
      expect(url).toMatch(/X-Amz-Signature=/);
      const body = randomBytes(50_000);
      const put = await fetch(url as string, { method: 'PUT', body });
      expect(put.status).toBe(200);
      expect(await driver.stat('direct/upload me.pdf')).toMatchObject({ type: 'FILE', size: body.length });

      const download = await driver.presignDownload('direct/upload me.pdf', 300);
      const got = await fetch(download as string);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(body);
    });

    it('refuses a tampered or unsigned URL with 403', async () => {
      await driver.write('private.txt', streamOf('secret'), {});
      const url = new URL((await driver.presignDownload('private.txt', 300)) as string);
      const tampered = new URL(url);
      tampered.searchParams.set('X-Amz-Expires', '604800');
      expect((await fetch(tampered)).status).toBe(403);
      const otherKey = new URL(url);
      otherKey.pathname = otherKey.pathname.replace('private.txt', 'other.txt');
      expect((await fetch(otherKey)).status).toBe(403);
      expect((await fetch(`${url.origin}${url.pathname}`)).status).toBe(403);
      const upload = new URL((await driver.presignUpload('planted.txt', 300)) as string);
      upload.searchParams.set('X-Amz-Signature', '0'.repeat(64));
      expect((await fetch(upload, { method: 'PUT', body: 'x' })).status).toBe(403);
      expect(await driver.stat('planted.txt')).toBeNull();
    });
  });

  describe('configuration', () => {
    it('works with virtual-host addressing (bucket in the host name)', async () => {
      const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options.all) callback(null, [{ address: s3.virtualHost.address, family: 4 }]);
        else callback(null, s3.virtualHost.address, 4);
      }) as unknown as LookupFunction;
      const agent = new Agent({ lookup } as ConstructorParameters<typeof Agent>[0]);
      const vhost = new S3Driver({
        ...(settings() as { bucketName: string }),
        endpoint: s3.virtualHost.endpoint,
        pathStyle: false,
        transportAgent: agent,
      });
      await vhost.write('v/host.txt', streamOf('virtual'), {});
      expect((await vhost.list('v/', { limit: 10 })).entries.map((e) => e.key)).toEqual(['v/host.txt']);
      expect(await text(driver, 'v/host.txt')).toBe('virtual');

      const url = (await vhost.presignDownload('v/host.txt', 300)) as string;
      expect(new URL(url).hostname).toBe(`${bucket}.${s3.virtualHost.hostname}`);
      const got = await httpCall(url, { method: 'GET', agent });
      expect(got).toMatchObject({ status: 200 });
      expect(got.body.toString()).toBe('virtual');
      const put = await httpCall((await vhost.presignUpload('v/put.txt', 300)) as string, {
        method: 'PUT',
        body: Buffer.from('put'),
        agent,
      });
      expect(put.status).toBe(200);
      expect(await text(driver, 'v/put.txt')).toBe('put');
      agent.destroy();
    });

    it('keeps providers with different key prefixes in one bucket apart', async () => {
      const tenantA = createDriver('S3', settings({ prefix: 'tenant-a/' }));
      const tenantB = createDriver('S3', settings({ prefix: 'tenant-b/' }));
      await tenantA.write('doc.txt', streamOf('A'), {});
      await tenantB.write('doc.txt', streamOf('B'), {});
      await tenantA.createFolder('only-a/');
      expect((await tenantA.list('', { limit: 10 })).entries.map((e) => e.key)).toEqual(['doc.txt', 'only-a/']);
      expect((await tenantB.list('', { limit: 10 })).entries.map((e) => e.key)).toEqual(['doc.txt']);
      expect(await text(tenantB, 'doc.txt')).toBe('B');
      expect((await driver.list('', { limit: 10 })).entries.map((e) => e.key)).toEqual(['tenant-a/', 'tenant-b/']);
      expect(new URL((await tenantA.presignDownload('doc.txt', 60)) as string).pathname).toBe(`/${bucket}/tenant-a/doc.txt`);
    });

    it('fails with wrong credentials without showing the secret, and never serializes it', async () => {
      const secret = `wrong-${randomBytes(8).toString('hex')}`;
      const wrong = createDriver('S3', settings({ secretKey: secret }));
      const err = await wrong.list('', { limit: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error).message)).not.toContain(secret);
      expect(JSON.stringify(wrong)).not.toContain(secret);
      expect(JSON.stringify(wrong)).toContain(bucket);
    });
  });
});

import { Client } from 'minio';
import { connect as netConnect } from 'node:net';
import { startS3Server, type TestS3Server } from '@docintel/testing';
import { itemsContract, put, type ContractContext } from './storage-contract';
import { clientFor, ok } from './support/client';
import { errorBody } from './support/http';
import { EventLog, eventually, ItemsApi, NAMESPACE, OTHER_NAMESPACE, startStorageStack, type StorageStack } from './storage-support';

const DOCS_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d01';
const HIDDEN_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d02';
const ISOLATED_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d03';
const MAPPED_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d04';
const BUCKET = 'docintel-e2e';
const HIDDEN_BUCKET = 'docintel-e2e-hidden';
/** Shared by the per-namespace providers: each namespace under its own prefix. */
const TENANTS_BUCKET = 'docintel-e2e-tenants';
/** Above the driver's 8 MiB part size, so that a broken-off upload has a multipart upload to abort. */
const MAX_UPLOAD_BYTES = 24 * 1024 * 1024;

describe('provider items on an S3 provider', () => {
  let s3: TestS3Server;
  let client: Client;
  let s: StorageStack;
  let api: ItemsApi;
  let events: EventLog;

  beforeAll(async () => {
    s3 = await startS3Server();
    await s3.createBucket(BUCKET);
    await s3.createBucket(HIDDEN_BUCKET);
    await s3.createBucket(TENANTS_BUCKET);
    const endpoint = new URL(s3.endpoint);
    client = new Client({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: false,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      region: s3.region,
      pathStyle: true,
    });
    const settings = { endpoint: s3.endpoint, region: s3.region, pathStyle: true, accessKey: s3.accessKey, secretKey: s3.secretKey };
    s = await startStorageStack(
      'storages3',
      [
        { id: DOCS_ID, name: 'Bucket', type: 'S3', bucketName: BUCKET, ...settings },
        { id: HIDDEN_ID, name: 'Hidden bucket', type: 'S3', bucketName: HIDDEN_BUCKET, namespaces: [OTHER_NAMESPACE], ...settings },
        {
          id: ISOLATED_ID,
          name: 'Tenants',
          type: 'S3',
          bucketName: TENANTS_BUCKET,
          prefix: 'docintel/',
          namespacePrefix: 'ns/{namespace}/',
          ...settings,
        },
        {
          id: MAPPED_ID,
          name: 'Mapped',
          type: 'S3',
          bucketName: TENANTS_BUCKET,
          namespaces: { [NAMESPACE]: { prefix: 'mapped-acme/' } },
          ...settings,
        },
      ],
      { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) },
    );
    api = new ItemsApi(s.stack, DOCS_ID, s.token);
    events = await EventLog.open(s.stack);
  });

  afterAll(async () => {
    await events?.close();
    await s?.close();
    await s3?.stop();
  });

  itemsContract('S3', (): ContractContext => ({
    api,
    anonymous: new ItemsApi(s.stack, DOCS_ID, undefined),
    hidden: new ItemsApi(s.stack, HIDDEN_ID, s.token),
    events,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    seed: async (files) => {
      // Straight into the bucket, a few at a time.
      const queue = [...files];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let f = queue.shift(); f; f = queue.shift()) await client.putObject(BUCKET, f.key, Buffer.from(f.body));
        }),
      );
    },
    isolated: { a: new ItemsApi(s.stack, ISOLATED_ID, s.token), b: new ItemsApi(s.stack, ISOLATED_ID, s.otherToken) },
  }));

  it('keeps each namespace of a per-namespace provider under its own key prefix, and hands out URLs inside it', async () => {
    const a = new ItemsApi(s.stack, ISOLATED_ID, s.token);
    const b = new ItemsApi(s.stack, ISOLATED_ID, s.otherToken);
    expect((await a.send('objects/', 'same.txt', 'A bytes', 'text/plain')).response.status).toBe(201);
    expect((await b.send('objects/', 'same.txt', 'B bytes', 'text/plain')).response.status).toBe(201);
    const read = async (key: string) => {
      const chunks: Buffer[] = [];
      for await (const c of await client.getObject(TENANTS_BUCKET, key)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString();
    };
    expect(await read(`docintel/ns/${NAMESPACE}/objects/same.txt`)).toBe('A bytes');
    expect(await read(`docintel/ns/${OTHER_NAMESPACE}/objects/same.txt`)).toBe('B bytes');
    // Keys stay relative to the namespace's prefix; presigned URLs point inside it.
    expect(await a.listOk({ key: 'objects/' })).toMatchObject({ items: [{ key: 'objects/same.txt' }] });
    const up = await b.uploadTarget({ key: 'objects/direct.txt' });
    expect(up.url.startsWith(`${s3.endpoint}/${TENANTS_BUCKET}/docintel/ns/${OTHER_NAMESPACE}/objects/direct.txt?`)).toBe(true);
  });

  it('lets only the namespaces of a mapping use a provider, each at its own prefix', async () => {
    const acme = new ItemsApi(s.stack, MAPPED_ID, s.token);
    expect((await acme.send('', 'm.txt', 'mapped', 'text/plain')).response.status).toBe(201);
    expect((await client.statObject(TENANTS_BUCKET, 'mapped-acme/m.txt')).size).toBe(6);
    await errorBody(await new ItemsApi(s.stack, MAPPED_ID, s.otherToken).list(), 403, 'FORBIDDEN');
    const visible = async (token: string) =>
      (await ok(clientFor(s.stack, token).GET('/api/core/providers', { params: { query: { pageSize: 100 } } }))).data.map((p) => p.id.id);
    expect(await visible(s.token)).toContain(MAPPED_ID);
    expect(await visible(s.otherToken)).not.toContain(MAPPED_ID);
  });

  it('stores uploads as objects in the bucket, with their content type', async () => {
    expect((await api.send('objects/', 'note.md', '# hi', 'text/markdown')).response.status).toBe(201);
    const stat = await client.statObject(BUCKET, 'objects/note.md');
    expect(stat.size).toBe(4);
    expect(stat.metaData['content-type']).toBe('text/markdown');
    expect(await api.listOk({ key: 'objects/' })).toMatchObject({ items: [{ key: 'objects/note.md', mediaType: 'text/markdown' }] });
  });

  it('hands out real S3 presigned URLs, which the bucket checks itself', async () => {
    const up = await api.uploadTarget({ key: 'direct/put.txt', mediaType: 'text/plain' });
    expect(up.supported).toBe(true);
    expect(up.url.startsWith(`${s3.endpoint}/${BUCKET}/direct/put.txt?`)).toBe(true);
    expect(new URL(up.url).searchParams.get('X-Amz-Signature')).toEqual(expect.any(String));
    const tampered = up.url.replace('direct/put.txt', 'direct/other.txt');
    expect((await put(tampered, Buffer.from('nope'), 'text/plain')).status).toBe(403);
    expect((await put(up.url, Buffer.from('straight to S3'), 'text/plain')).status).toBe(200);
    expect((await api.confirmUpload('direct/put.txt')).response.status).toBe(200);

    const down = await ok(api.presignDownload('direct/put.txt', 5));
    expect(down.expiresInSeconds).toBe(300);
    expect(down.url.startsWith(`${s3.endpoint}/${BUCKET}/direct/put.txt?`)).toBe(true);
    expect(await (await fetch(down.url)).text()).toBe('straight to S3');
    expect((await fetch(down.url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`))).status).toBe(403);
  });

  it('keeps an empty folder, and deletes a folder with everything under it', async () => {
    expect((await api.folder('tree/empty/')).response.status).toBe(201);
    expect(await api.keys('tree/')).toEqual(['tree/empty/']);
    await api.send('tree/full/deeper/', 'a.txt', 'a', 'text/plain');
    await api.send('tree/full/', 'b.txt', 'b', 'text/plain');
    expect((await api.remove('tree/full/')).response.status).toBe(204);
    expect(await api.keys('tree/')).toEqual(['tree/empty/']);
    const left: string[] = [];
    for await (const o of client.listObjectsV2(BUCKET, 'tree/full/', true)) left.push((o as { name: string }).name);
    expect(left).toEqual([]);
  });

  it('leaves no object and no pending multipart upload behind when an upload breaks off', async () => {
    const { port } = new URL(s.stack.baseUrl);
    const boundary = '----docintel-e2e-s3-boundary';
    const preamble = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="partial.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    // More than one 8 MiB part, so that a multipart upload is under way when the client goes.
    const part = Buffer.concat([Buffer.from(preamble), Buffer.alloc(12 * 1024 * 1024, 3)]);
    const socket = netConnect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      [
        `POST ${api.path('', { key: 'broken/' })} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${s.token}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${part.length * 2}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(part);
    // Nothing else uploads meanwhile: the pending upload is this one.
    await eventually(async () => (await s3.pendingUploads(BUCKET)).length > 0, 'a multipart upload starting');
    socket.destroy();
    await eventually(async () => (await s3.pendingUploads(BUCKET)).length === 0, 'the multipart upload being aborted');
    expect(await api.keys('broken/')).toEqual([]);
    await errorBody(await api.content('broken/partial.bin'), 404, 'NOT_FOUND');
  });
});

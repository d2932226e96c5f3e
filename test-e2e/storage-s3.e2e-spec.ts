import { Client } from 'minio';
import { connect as netConnect } from 'node:net';
import { startS3Server, type TestS3Server } from '@docintel/testing';
import { itemsContract, put, type ContractContext } from './storage-contract';
import { errorBody } from './support/http';
import { EventLog, eventually, ItemsApi, OTHER_NAMESPACE, startStorageStack, type StorageStack } from './storage-support';

const DOCS_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d01';
const HIDDEN_ID = '6c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d02';
const BUCKET = 'docintel-e2e';
const HIDDEN_BUCKET = 'docintel-e2e-hidden';
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
  }));

  it('stores uploads as objects in the bucket, with their content type', async () => {
    expect((await api.upload('objects/', 'note.md', '# hi', 'text/markdown')).status).toBe(201);
    const stat = await client.statObject(BUCKET, 'objects/note.md');
    expect(stat.size).toBe(4);
    expect(stat.metaData['content-type']).toBe('text/markdown');
    expect(await api.listOk({ key: 'objects/' })).toMatchObject({ items: [{ key: 'objects/note.md', mediaType: 'text/markdown' }] });
  });

  it('hands out real S3 presigned URLs, which the bucket checks itself', async () => {
    const up = (await (await api.uploadUrl({ key: 'direct/put.txt', mediaType: 'text/plain' })).json()) as {
      url: string;
      supported: boolean;
    };
    expect(up.supported).toBe(true);
    expect(up.url.startsWith(`${s3.endpoint}/${BUCKET}/direct/put.txt?`)).toBe(true);
    expect(new URL(up.url).searchParams.get('X-Amz-Signature')).toEqual(expect.any(String));
    const tampered = up.url.replace('direct/put.txt', 'direct/other.txt');
    expect((await put(tampered, Buffer.from('nope'), 'text/plain')).status).toBe(403);
    expect((await put(up.url, Buffer.from('straight to S3'), 'text/plain')).status).toBe(200);
    expect((await api.confirm('direct/put.txt')).status).toBe(200);

    const down = (await (await api.downloadUrl('direct/put.txt', 5)).json()) as { url: string; expiresInSeconds: number };
    expect(down.expiresInSeconds).toBe(300);
    expect(down.url.startsWith(`${s3.endpoint}/${BUCKET}/direct/put.txt?`)).toBe(true);
    expect(await (await fetch(down.url)).text()).toBe('straight to S3');
    expect((await fetch(down.url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`))).status).toBe(403);
  });

  it('keeps an empty folder, and deletes a folder with everything under it', async () => {
    expect((await api.createFolder('tree/empty/')).status).toBe(201);
    expect(await api.keys('tree/')).toEqual(['tree/empty/']);
    await api.upload('tree/full/deeper/', 'a.txt', 'a', 'text/plain');
    await api.upload('tree/full/', 'b.txt', 'b', 'text/plain');
    expect((await api.delete('tree/full/')).status).toBe(204);
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

import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import {
  assertDockerEngine,
  ensureTestImage,
  MissingTestImageError,
  TEST_IMAGES,
  testContainerLabels,
  testImage,
  useTestcontainers,
} from './infrastructure';
import { verifySigV4 } from './sigv4';

/**
 * An S3-compatible server for tests: MinIO in a container with TEST_USE_DOCKER=1 (TEST_MINIO_IMAGE;
 * where the engine has no MinIO image and cannot pull one, s3rver with a warning), else the
 * npm `s3rver` in this process behind a front that adds or corrects what it lacks (SigV4
 * verification, AbortMultipartUpload, ListObjectsV2, one-byte ranges). Buckets are private:
 * unsigned requests get 403.
 */
export interface TestS3Server {
  kind: 'minio' | 's3rver';
  /** Path-style endpoint, e.g. http://127.0.0.1:39201 */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /**
   * For virtual-host-style addressing: an endpoint whose sub-domains are buckets. Its host name
   * does not resolve through DNS; connect to `address` (give an http.Agent a `lookup` for it).
   */
  virtualHost: { endpoint: string; hostname: string; address: string };
  createBucket(name: string): Promise<void>;
  /** Keys of multipart uploads started and neither completed nor aborted. */
  pendingUploads(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';
const VHOST_DOMAIN = 's3.localhost';

/** MinIO when Testcontainers was asked for and its image is there (it cannot be built locally). */
async function minioImage(): Promise<string | undefined> {
  if (!useTestcontainers()) return undefined;
  await assertDockerEngine();
  const image = testImage('minio');
  try {
    await ensureTestImage(image, TEST_IMAGES.minio.variable);
    return image;
  } catch (err) {
    if (!(err instanceof MissingTestImageError)) throw err;
    console.warn(`${err.message} Using the in-process S3 server (s3rver) instead.`);
    return undefined;
  }
}

function adminClient(endpoint: string, accessKey: string, secretKey: string): Client {
  const url = new URL(endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey,
    secretKey,
    region: REGION,
    pathStyle: true,
  });
}

export async function startS3Server(): Promise<TestS3Server> {
  const image = await minioImage();
  return image ? startMinio(image) : startS3rver();
}

async function startMinio(image: string): Promise<TestS3Server> {
  const { MinioContainer } = await import('@testcontainers/minio');
  const container = await new MinioContainer(image)
    .withEnvironment({ MINIO_DOMAIN: VHOST_DOMAIN, MINIO_REGION: REGION })
    .withLabels(testContainerLabels())
    .start();
  const endpoint = container.getConnectionUrl();
  const accessKey = container.getUsername();
  const secretKey = container.getPassword();
  const client = adminClient(endpoint, accessKey, secretKey);
  const port = container.getPort();
  return {
    kind: 'minio',
    endpoint,
    accessKey,
    secretKey,
    region: REGION,
    virtualHost: {
      endpoint: `http://${VHOST_DOMAIN}:${port}`,
      hostname: VHOST_DOMAIN,
      address: container.getHost() === 'localhost' ? '127.0.0.1' : container.getHost(),
    },
    createBucket: (name) => client.makeBucket(name, REGION),
    pendingUploads: async (bucket) => {
      const keys: string[] = [];
      for await (const upload of client.listIncompleteUploads(bucket, '', true)) keys.push((upload as { key: string }).key);
      return keys;
    },
    stop: async () => {
      await container.stop();
    },
  };
}

async function startS3rver(): Promise<TestS3Server> {
  const { default: S3rver } = await import('s3rver');
  const directory = await mkdtemp(join(tmpdir(), 'docintel-s3-'));
  // s3rver's own accounts: one key pair, S3RVER/S3RVER.
  const accessKey = 'S3RVER';
  const secretKey = 'S3RVER';
  const s3rver = new S3rver({ directory, silent: true, serviceEndpoint: 'localhost', vhostBuckets: true });
  const handle = s3rver.callback();
  const store = (s3rver as unknown as { store: S3rverStore }).store;
  fixFirstByteRange(store);
  serializeDeletes(store);
  const uploadsDir = (bucket: string): string => join(directory, bucket, '._S3rver_uploads');

  const server: Server = createServer((req, res) => {
    void (async () => {
      const verdict = verifySigV4(req, { secretFor: (key) => (key === accessKey ? secretKey : undefined), region: REGION });
      if (!verdict.ok) return sendError(res, verdict.status, verdict.code, verdict.message);
      const url = new URL(req.url ?? '/', 'http://s3');
      const bucket = bucketOf(req, url);
      if (req.method === 'DELETE' && url.searchParams.has('uploadId') && bucket) {
        // AbortMultipartUpload, which s3rver lacks: drop the stored parts.
        await rm(join(uploadsDir(bucket), url.searchParams.get('uploadId') ?? ''), { recursive: true, force: true });
        req.resume();
        res.statusCode = 204;
        return res.end();
      }
      if (req.method === 'GET' && bucket && url.searchParams.get('list-type') === '2' && isBucketPath(req, url)) {
        req.resume();
        return listObjectsV2(directory, store, bucket, url, res);
      }
      handle(req, res);
    })().catch((err: unknown) => sendError(res, 500, 'InternalError', (err as Error).message));
  });
  // Node closes an idle kept-alive connection after 5 s; a client reusing it at that moment (the
  // gap between two tests on a loaded machine) gets ECONNRESET. Real S3 servers keep them longer.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = adminClient(endpoint, accessKey, secretKey);

  return {
    kind: 's3rver',
    endpoint,
    accessKey,
    secretKey,
    region: REGION,
    virtualHost: { endpoint: `http://${VHOST_DOMAIN}:${port}`, hostname: VHOST_DOMAIN, address: '127.0.0.1' },
    createBucket: (name) => client.makeBucket(name, REGION),
    pendingUploads: async (bucket) => {
      const ids = await readdir(uploadsDir(bucket)).catch(() => [] as string[]);
      return ids;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const logger = (s3rver as unknown as { logger?: { close(): void } }).logger;
      logger?.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The bucket a request addresses: the first path segment, or the sub-domain of the vhost domain. */
function bucketOf(req: IncomingMessage, url: URL): string | undefined {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (host.endsWith(`.${VHOST_DOMAIN}`)) return host.slice(0, -VHOST_DOMAIN.length - 1);
  return decodeURIComponent(url.pathname.split('/')[1] ?? '') || undefined;
}

/** Whether the request names a bucket itself (not an object in it). */
function isBucketPath(req: IncomingMessage, url: URL): boolean {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  const segments = url.pathname.split('/').filter(Boolean);
  return host.endsWith(`.${VHOST_DOMAIN}`) ? segments.length === 0 : segments.length === 1;
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return void res.destroy();
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>test</RequestId></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const OBJECT_SUFFIX = '._S3rver_object';

/** The part of s3rver's file store used here. */
interface S3rverStore {
  getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<S3rverObject | null>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

interface S3rverObject {
  content: Readable | null;
  range?: { start: number; end: number };
}

/** s3rver reads "bytes=0-0" as the whole object (a 0 end is taken as absent); serve the one byte. */
function fixFirstByteRange(store: S3rverStore): void {
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (object?.content && options?.end === 0) {
      object.content.destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      object.range = { start: 0, end: 0 };
    }
    return object;
  };
}

/**
 * s3rver deletes the objects of one DeleteObjects request in parallel, and each removes the
 * folders it left empty: two of them racing for one folder fail the request with a 500.
 */
function serializeDeletes(store: S3rverStore): void {
  const deleteObject = store.deleteObject.bind(store);
  let queue: Promise<unknown> = Promise.resolve();
  store.deleteObject = (bucket, key) => {
    const run = queue.then(() => deleteObject(bucket, key));
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * ListObjectsV2 answered here from s3rver's files, because s3rver's own fails on Node 18+ (its
 * continuation tokens use DES, gone from OpenSSL 3), omits folders that hold only sub-folders,
 * counts only objects against max-keys, and ignores encoding-type=url. This follows S3: keys in
 * UTF-8 byte order, objects and common prefixes merged and counted together, start-after and
 * continuation tokens exclusive.
 */
async function listObjectsV2(directory: string, store: S3rverStore, bucket: string, url: URL, res: ServerResponse): Promise<void> {
  const q = url.searchParams;
  const bucketDir = join(directory, bucket);
  let files: string[];
  try {
    files = await readdir(bucketDir, { recursive: true });
  } catch {
    return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
  }
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const maxKeys = Math.min(1000, Number(q.get('max-keys') ?? 1000));
  const token = q.get('continuation-token');
  const after = Buffer.from(token ? Buffer.from(token, 'base64url').toString('utf8') : (q.get('start-after') ?? ''), 'utf8');
  const keys = files
    .filter((f) => f.endsWith(OBJECT_SUFFIX) && !f.startsWith('._S3rver_'))
    .map((f) => f.slice(0, -OBJECT_SUFFIX.length).split(sep).join('/'))
    .filter((k) => k.startsWith(prefix))
    .map((k) => ({ key: k, bytes: Buffer.from(k, 'utf8') }))
    .filter((k) => Buffer.compare(k.bytes, after) > 0)
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes));

  const contents: string[] = [];
  const prefixes: string[] = [];
  let last = '';
  let truncated = false;
  for (const { key } of keys) {
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const entry = cut < 0 ? key : key.slice(0, cut + delimiter.length);
    if (entry === last || Buffer.compare(Buffer.from(entry, 'utf8'), after) <= 0) continue;
    if (contents.length + prefixes.length === maxKeys) {
      truncated = true;
      break;
    }
    (cut < 0 ? contents : prefixes).push(entry);
    last = entry;
  }

  const encode = q.get('encoding-type') === 'url' ? (v: string) => escapeXml(encodeURIComponent(v)) : escapeXml;
  const objects = await Promise.all(
    contents.map(async (key) => {
      const meta = await store.getMetadata(bucket, key);
      return (
        `<Contents><Key>${encode(key)}</Key><LastModified>${new Date(String(meta['last-modified'])).toISOString()}</LastModified>` +
        `<ETag>${escapeXml(String(meta.etag))}</ETag><Size>${meta['content-length']}</Size><StorageClass>STANDARD</StorageClass></Contents>`
      );
    }),
  );
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Name>${escapeXml(bucket)}</Name><Prefix>${encode(prefix)}</Prefix><KeyCount>${contents.length + prefixes.length}</KeyCount>` +
    `<MaxKeys>${maxKeys}</MaxKeys>${delimiter ? `<Delimiter>${encode(delimiter)}</Delimiter>` : ''}<IsTruncated>${truncated}</IsTruncated>` +
    (q.get('encoding-type') === 'url' ? '<EncodingType>url</EncodingType>' : '') +
    (token ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : '') +
    (truncated ? `<NextContinuationToken>${Buffer.from(last, 'utf8').toString('base64url')}</NextContinuationToken>` : '') +
    objects.join('') +
    prefixes.map((p) => `<CommonPrefixes><Prefix>${encode(p)}</Prefix></CommonPrefixes>`).join('') +
    '</ListBucketResult>';
  res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
  res.end(xml);
}

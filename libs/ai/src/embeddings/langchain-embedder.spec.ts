import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@docintel/config';
import { createEmbedder } from './create-embedder';
import { EmbeddingError } from './embedder';
import { EmbeddingsEnv } from './embeddings-env';

/**
 * No OpenAI or Ollama service is reachable here, so a small local server speaks their wire
 * formats: POST /v1/embeddings (OpenAI) and POST /api/embed (Ollama). What is tested is our side:
 * configuration, batching, the order of vectors, retries and error reporting through LangChain.
 */

const DIMS = 8;

/** A deterministic vector per text, so that the test can tell which vector belongs to which text. */
function fakeVector(text: string, dims = DIMS): number[] {
  const h = createHash('sha256').update(text).digest();
  return Array.from({ length: dims }, (_, i) => h[i] / 255);
}

interface Seen {
  path: string;
  auth?: string;
  body: { model: string; input: string[] | string; encoding_format?: string };
}

class FakeEmbeddingServer {
  readonly seen: Seen[] = [];
  /** Status codes to answer with before answering normally. */
  failures: number[] = [];
  dims = DIMS;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.read(req).then((raw) => {
        const body = JSON.parse(raw) as Seen['body'];
        this.seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
        const fail = this.failures.shift();
        res.setHeader('content-type', 'application/json');
        if (fail) {
          res.statusCode = fail;
          res.end(JSON.stringify({ error: { message: `fake failure ${fail}`, type: 'server_error' } }));
          return;
        }
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        if (req.url === '/v1/embeddings') {
          res.end(
            JSON.stringify({
              object: 'list',
              model: body.model,
              data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t, this.dims) })),
              usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
            }),
          );
        } else if (req.url === '/api/embed') {
          res.end(JSON.stringify({ model: body.model, embeddings: inputs.map((t) => fakeVector(t, this.dims)) }));
        } else {
          res.statusCode = 404;
          res.end('{}');
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async read(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
}

describe('remote embedders through LangChain', () => {
  const server = new FakeEmbeddingServer();
  let base: string;

  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen.length = 0;
    server.failures = [];
    server.dims = DIMS;
  });

  const env = (vars: Record<string, string>) =>
    loadConfig(EmbeddingsEnv, {
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_DIMENSIONS: String(DIMS),
      EMBEDDINGS_MAX_RETRIES: '1',
      ...vars,
    });

  describe('OpenAI-compatible endpoint', () => {
    const openai = (extra: Record<string, string> = {}) =>
      createEmbedder(env({ EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_BASE_URL: `${base}/v1`, EMBEDDINGS_API_KEY: 'sk-test', ...extra }));

    it('returns one vector per text, in order, in batches of EMBEDDINGS_BATCH_SIZE', async () => {
      const embedder = openai({ EMBEDDINGS_BATCH_SIZE: '2' });
      expect(embedder.model).toBe('openai:fake-embed');
      expect(embedder.dimensions).toBe(DIMS);
      const texts = ['one', 'two', 'three', 'four', 'five'];
      const vectors = await embedder.embed(texts);
      expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => Array.from(Float32Array.from(fakeVector(t)))));
      expect(server.seen.map((s) => s.body.input)).toEqual([['one', 'two'], ['three', 'four'], ['five']]);
      expect(server.seen[0]).toMatchObject({
        path: '/v1/embeddings',
        auth: 'Bearer sk-test',
        body: { model: 'fake-embed', encoding_format: 'float' },
      });
    });

    it('cuts texts to EMBEDDINGS_MAX_CHARS', async () => {
      await openai({ EMBEDDINGS_MAX_CHARS: '16' }).embed(['x'.repeat(100)]);
      expect(server.seen[0].body.input).toEqual(['x'.repeat(16)]);
    });

    it('retries a failed request (LangChain back-off) and then succeeds', async () => {
      server.failures = [500];
      const [v] = await openai().embed(['retry me']);
      expect(Array.from(v)).toEqual(Array.from(Float32Array.from(fakeVector('retry me'))));
      expect(server.seen).toHaveLength(2);
    });

    it('gives up after EMBEDDINGS_MAX_RETRIES with an error naming the endpoint', async () => {
      server.failures = [503, 503, 503];
      const err = (await openai()
        .embed(['x'])
        .catch((e: unknown) => e)) as EmbeddingError;
      expect(err).toBeInstanceOf(EmbeddingError);
      expect(err.message).toContain(`The openai embedding endpoint at ${base}/v1 failed`);
      expect(server.seen).toHaveLength(2);
    });

    it('does not retry a request the server rejects as invalid', async () => {
      server.failures = [400];
      await expect(openai().embed(['x'])).rejects.toThrow(EmbeddingError);
      expect(server.seen).toHaveLength(1);
    });

    it('refuses vectors whose length is not EMBEDDINGS_DIMENSIONS', async () => {
      server.dims = DIMS * 2;
      await expect(openai().embed(['x'])).rejects.toThrow(
        `Model fake-embed returned 16-dimensional vectors but EMBEDDINGS_DIMENSIONS is ${DIMS}`,
      );
    });
  });

  describe('Ollama endpoint', () => {
    const ollama = (extra: Record<string, string> = {}) =>
      createEmbedder(env({ EMBEDDINGS_PROVIDER: 'ollama', EMBEDDINGS_BASE_URL: base, ...extra }));

    it('returns one vector per text, in order, through /api/embed', async () => {
      const embedder = ollama({ EMBEDDINGS_BATCH_SIZE: '3' });
      expect(embedder.model).toBe('ollama:fake-embed');
      const texts = ['a', 'b', 'c', 'd'];
      const vectors = await embedder.embed(texts);
      expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => Array.from(Float32Array.from(fakeVector(t)))));
      expect(server.seen.map((s) => [s.path, s.body.model, s.body.input])).toEqual([
        ['/api/embed', 'fake-embed', ['a', 'b', 'c']],
        ['/api/embed', 'fake-embed', ['d']],
      ]);
      expect(server.seen[0].auth).toBeUndefined();
    });

    it('sends the API key as a bearer token for an Ollama behind a proxy', async () => {
      await ollama({ EMBEDDINGS_API_KEY: 'proxy-key' }).embed(['x']);
      expect(server.seen[0].auth).toBe('Bearer proxy-key');
    });

    it('retries a failed request and then succeeds', async () => {
      server.failures = [502];
      const [v] = await ollama().embed(['again']);
      expect(Array.from(v)).toEqual(Array.from(Float32Array.from(fakeVector('again'))));
      expect(server.seen).toHaveLength(2);
    });

    it('reports an unreachable server as an EmbeddingError', async () => {
      const embedder = createEmbedder(
        env({ EMBEDDINGS_PROVIDER: 'ollama', EMBEDDINGS_BASE_URL: 'http://127.0.0.1:1', EMBEDDINGS_MAX_RETRIES: '0' }),
      );
      await expect(embedder.embed(['x'])).rejects.toThrow('The ollama embedding endpoint at http://127.0.0.1:1 failed');
    });
  });
});

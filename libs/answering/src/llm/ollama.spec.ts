import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@docintel/config';
import type { ReaderPassage } from '../reader';
import { createLlmReader } from './create-llm-reader';
import { LlmError } from './llm-endpoint';
import { LlmEnv } from './llm-env';

/**
 * LLM_PROVIDER=ollama: Ollama's native POST /api/chat, which streams NDJSON. No Ollama runs here,
 * so a few lines of server speak that format; what is tested is that the schema travels as
 * `format` and that failures are retried and reported like the OpenAI path's.
 */

interface OllamaRequest {
  model: string;
  format?: unknown;
  messages: Array<{ role: string; content: string }>;
  headers: Record<string, unknown>;
}

describe('LlmReader over Ollama', () => {
  const seen: OllamaRequest[] = [];
  let statuses: number[] = [];
  let server: Server;
  let base: string;

  const passage: ReaderPassage = {
    id: 'p1',
    fileId: 'f1',
    fileName: 'a.txt',
    nodeType: 'paragraph',
    text: 'Headcount: 42 people.',
    headings: [],
    score: 1,
  };
  const reply = { found: true, value: 42, explanation: 'Stated in a.txt.', citations: [{ passageId: 'p1', quote: '42 people' }] };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OllamaRequest), headers: req.headers });
        const status = statuses.shift();
        if (status) {
          res.writeHead(status, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: 'model is loading' }));
        }
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const text = JSON.stringify(reply);
        const line = (o: object) => `${JSON.stringify({ model: 'llama3.1', created_at: new Date().toISOString(), ...o })}\n`;
        res.write(line({ message: { role: 'assistant', content: text.slice(0, 10) }, done: false }));
        res.write(line({ message: { role: 'assistant', content: text.slice(10) }, done: false }));
        res.end(
          line({ message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 1, eval_count: 1 }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    statuses = [];
  });

  const reader = (vars: Record<string, string> = {}) =>
    createLlmReader(loadConfig(LlmEnv, { LLM_PROVIDER: 'ollama', LLM_BASE_URL: base, LLM_MODEL: 'llama3.1', ...vars }), {
      retryBaseDelayMs: 5,
    });

  it('sends the answer schema as `format` and reads the streamed answer', async () => {
    const result = await reader().answer({ question: 'Headcount?', answerType: { dataType: 'INT' } }, [passage]);
    expect(result).toMatchObject({
      found: true,
      value: { longValue: 42 },
      rawValue: '42',
      citations: [{ passageId: 'p1', start: 11, end: 20 }],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      model: 'llama3.1',
      format: { type: 'object', required: ['found', 'value', 'explanation', 'citations'] },
    });
    expect(seen[0].headers.authorization).toBeUndefined();
  });

  it('retries a 503 and reports it in the end, with the API key as a bearer token for a proxy', async () => {
    statuses = [503, 503, 503];
    const err = (await reader({ LLM_API_KEY: 'proxy-key' })
      .answer({ question: 'Headcount?', answerType: { dataType: 'INT' } }, [passage])
      .catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toContain(
      `The LLM endpoint at ${base} (model llama3.1) answered 503 Service Unavailable three times (last: model is loading)`,
    );
    expect(seen).toHaveLength(3);
    expect(seen[0].headers.authorization).toBe('Bearer proxy-key');
  });
});

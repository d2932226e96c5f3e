import 'reflect-metadata';
import type { AnswerTypeDto } from '@docintel/contracts';
import { loadConfig } from '@docintel/config';
import { openAiReply, startOpenAiServer, type OpenAiChatMessage, type TestOpenAiServer } from '@docintel/testing';
import type { ReaderPassage, ReaderQuestion } from '../reader';
import type { LlmAnswerOutput } from './answer-schema';
import { createLlmReader } from './create-llm-reader';
import { LlmError, type LlmEndpointOptions } from './llm-endpoint';
import { LlmEnv } from './llm-env';
import { LLM_CONFIDENCE } from './llm-reader';

/**
 * The LLM path end to end through LangChain's ChatOpenAI, against a local server that speaks the
 * OpenAI chat-completions wire protocol (no paid API can be reached from tests). What is tested
 * is our side: the request sent, the checks of the reply, retries and errors.
 */

const passage = (overrides: Partial<ReaderPassage> = {}): ReaderPassage => ({
  id: 'node-1',
  fileId: 'file-1',
  fileName: 'lease.pdf',
  nodeType: 'paragraph',
  text: 'The lease ends on 31 March 2027 and may be renewed once.',
  headings: ['Term'],
  score: 1,
  ...overrides,
});

const PASSAGES = [
  passage(),
  passage({ id: 'node-2', nodeType: 'row', text: 'Monthly rent | EUR 1,250.50 |  payable   in advance', headings: ['Payments'] }),
];

const question = (overrides: Partial<ReaderQuestion> = {}): ReaderQuestion => ({
  question: 'When does the lease end?',
  answerType: { dataType: 'DATE', dateFormat: 'EUR' },
  ...overrides,
});

const answer = (overrides: Partial<LlmAnswerOutput> = {}): LlmAnswerOutput => ({
  found: true,
  value: '2027-03-31',
  explanation: 'The term section gives the end date.',
  citations: [{ passageId: 'node-1', quote: '31 March 2027' }],
  ...overrides,
});

describe('LlmReader over an OpenAI-compatible endpoint', () => {
  let server: TestOpenAiServer;

  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(() => server.stop());
  beforeEach(() => server.reset());

  const reader = (vars: Record<string, string> = {}, overrides: Partial<LlmEndpointOptions> = {}) =>
    createLlmReader(
      loadConfig(LlmEnv, {
        LLM_BASE_URL: server.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'test-model',
        LLM_TIMEOUT_MS: '2000',
        ...vars,
      }),
      { retryBaseDelayMs: 5, ...overrides },
    );
  const userText = (messages: OpenAiChatMessage[]) => messages.filter((m) => m.role === 'user').map((m) => String(m.content));

  describe('a valid answer', () => {
    it('is read into the answer type, with its quote as a span of the passage', async () => {
      server.enqueue(openAiReply.output(answer()));
      const r = reader();
      expect(r.name).toBe('llm:test-model');
      const result = await r.answer(question(), PASSAGES);
      const start = PASSAGES[0].text.indexOf('31 March 2027');
      expect(result).toEqual({
        found: true,
        rawValue: '31/03/2027',
        value: { dateValue: '2027-03-31T00:00:00.000Z' },
        confidence: LLM_CONFIDENCE.checked,
        explanation: 'The term section gives the end date.',
        citations: [{ passageId: 'node-1', start, end: start + '31 March 2027'.length }],
      });
    });

    it('is asked for with a JSON Schema response format (LangChain jsonSchema method), the passages and their ids', async () => {
      server.enqueue(openAiReply.output(answer()));
      await reader().answer(question({ guidelines: 'Use the latest amendment.' }), PASSAGES);
      const [req] = server.requests;
      expect(req.headers.authorization).toBe('Bearer sk-test');
      expect(req.body).toMatchObject({ model: 'test-model', temperature: 0 });
      expect(req.body?.tools).toBeUndefined();
      expect(req.structuredOutput).toMatchObject({ method: 'json_schema', name: 'answer', strict: true });
      const schema = req.structuredOutput.method === 'json_schema' ? req.structuredOutput.schema : {};
      expect(schema).toMatchObject({
        required: ['found', 'value', 'explanation', 'citations'],
        properties: {
          value: { anyOf: [{ type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }, { type: 'null' }] },
          citations: { items: { properties: { passageId: { enum: ['node-1', 'node-2'] } } } },
        },
      });
      const [prompt] = userText(req.body!.messages);
      expect(prompt).toContain('Question: When does the lease end?');
      expect(prompt).toContain('Use the latest amendment.');
      expect(prompt).toContain('<passage id="node-1" file="lease.pdf" section="Term" kind="paragraph">\nThe lease ends on 31 March 2027');
      expect(prompt).toContain('<passage id="node-2"');
      expect(req.body!.messages[0].role).toBe('system');
    });

    it('can be asked for through function calling (LLM_STRUCTURED_OUTPUT=function_calling)', async () => {
      server.enqueue(openAiReply.output(answer()));
      const result = await reader({ LLM_STRUCTURED_OUTPUT: 'function_calling' }).answer(question(), PASSAGES);
      expect(result.found).toBe(true);
      expect(result.value).toEqual({ dateValue: '2027-03-31T00:00:00.000Z' });
      const [req] = server.requests;
      expect(req.structuredOutput).toMatchObject({ method: 'function_calling', name: 'answer' });
      expect(req.body?.response_format).toBeUndefined();
    });

    it('matches quotes whatever their whitespace, and maps each to the span of the passage', async () => {
      server.enqueue(
        openAiReply.output(
          answer({
            value: [1250.5],
            citations: [
              { passageId: 'node-2', quote: 'EUR 1,250.50 | payable in advance' },
              { passageId: 'node-2', quote: 'not in the passage' },
            ],
          }),
        ),
      );
      const result = await reader().answer(
        question({ question: 'Rent?', answerType: { dataType: 'FLOAT', multiValued: true, decimalPrecision: 'TWO_DECIMALS' } }),
        PASSAGES,
      );
      const text = PASSAGES[1].text;
      expect(result).toMatchObject({
        found: true,
        value: { doubleListValue: [1250.5] },
        rawValue: '1250.50',
        // One citation was dropped.
        confidence: LLM_CONFIDENCE.partlyChecked,
        citations: [{ passageId: 'node-2', start: text.indexOf('EUR'), end: text.length }],
      });
    });

    it('is "not found" with the model\'s reason when the passages do not give the answer', async () => {
      server.enqueue(openAiReply.output({ found: false, value: null, explanation: 'The passages give no end date.', citations: [] }));
      const result = await reader().answer(question(), PASSAGES);
      expect(result).toEqual({
        found: false,
        rawValue: '',
        value: null,
        confidence: 0,
        explanation: 'The passages give no end date.',
        citations: [],
      });
    });

    it('does not ask the model when no passage was retrieved', async () => {
      const result = await reader().answer(question(), []);
      expect(result.found).toBe(false);
      expect(result.explanation).toContain('LLM was not asked');
      expect(server.requests).toHaveLength(0);
    });

    it.each<[string, AnswerTypeDto, LlmAnswerOutput['value'], object, string]>([
      ['STRING', { dataType: 'STRING' }, 'renewed once', { strValue: 'renewed once' }, 'renewed once'],
      ['INT', { dataType: 'INT' }, 2027, { longValue: 2027 }, '2027'],
      ['BOOL', { dataType: 'BOOL' }, true, { boolValue: true }, 'Yes'],
      ['ENUM', { dataType: 'ENUM', enumValues: ['Fixed term', 'Open-ended'] }, 'Fixed term', { strValue: 'Fixed term' }, 'Fixed term'],
      [
        'multi-valued STRING',
        { dataType: 'STRING', multiValued: true },
        ['lease', 'renewal'],
        { strListValue: ['lease', 'renewal'] },
        'lease; renewal',
      ],
    ])('reads a %s value', async (_name, answerType, value, expected, rawValue) => {
      server.enqueue(openAiReply.output(answer({ value, citations: [{ passageId: 'node-1', quote: 'may be renewed once' }] })));
      const result = await reader().answer(question({ answerType }), PASSAGES);
      expect(result).toMatchObject({ found: true, value: expected, rawValue });
    });
  });

  describe('an answer whose citations do not check out', () => {
    it('is sent back once with what was wrong, and the corrected answer is used', async () => {
      server.enqueue(
        openAiReply.output(answer({ citations: [{ passageId: 'node-9', quote: '31 March 2027' }] })),
        openAiReply.output(answer()),
      );
      const result = await reader().answer(question(), PASSAGES);
      expect(result).toMatchObject({ found: true, confidence: LLM_CONFIDENCE.partlyChecked, citations: [{ passageId: 'node-1' }] });
      expect(server.requests).toHaveLength(2);
      const retry = server.requests[1].body!.messages;
      expect(retry[retry.length - 2]).toMatchObject({ role: 'assistant' });
      expect(JSON.parse(String(retry[retry.length - 2].content))).toMatchObject({ citations: [{ passageId: 'node-9' }] });
      expect(retry[retry.length - 1].content).toContain('passage "node-9" is not one of the passages given');
    });

    it('is "not found", saying why, when the second answer fails too', async () => {
      const bad = answer({ citations: [{ passageId: 'node-1', quote: '30 April 2027' }] });
      server.enqueue(openAiReply.output(bad), openAiReply.output(bad));
      const result = await reader().answer(question(), PASSAGES);
      expect(result.found).toBe(false);
      expect(result.value).toBeNull();
      expect(result.citations).toEqual([]);
      expect(result.explanation).toContain('the quote "30 April 2027" does not occur in passage "node-1"');
      expect(result.explanation).toContain('asked once more');
      expect(server.requests).toHaveLength(2);
    });

    it('is sent back when it cites nothing', async () => {
      server.enqueue(openAiReply.output(answer({ citations: [] })), openAiReply.output(answer({ citations: [] })));
      const result = await reader().answer(question(), PASSAGES);
      expect(result.found).toBe(false);
      expect(result.explanation).toContain('it cites no passage');
    });
  });

  describe('endpoint failures', () => {
    it('waits as long as Retry-After says after a 429, then uses the answer', async () => {
      server.enqueue(openAiReply.rateLimited(1), openAiReply.output(answer()));
      const started = Date.now();
      const result = await reader().answer(question(), PASSAGES);
      expect(result.found).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.requests).toHaveLength(2);
    });

    it('gives up on a persistent 500 with a message naming the endpoint, the status and what to do', async () => {
      server.script = () => openAiReply.error(500, { message: 'model crashed' });
      const err = (await reader()
        .answer(question(), PASSAGES)
        .catch((e: unknown) => e)) as LlmError;
      expect(err).toBeInstanceOf(LlmError);
      expect(err.code).toBe('UNAVAILABLE');
      expect(err.attempts).toBe(3);
      expect(err.message).toBe(
        `The LLM endpoint at ${server.baseUrl} (model test-model) answered 500 Internal Server Error three times (last: model crashed); ` +
          "the server or the model behind it is failing: check the server's logs and that LLM_MODEL is loaded.",
      );
      expect(server.requests).toHaveLength(3);
    });

    it('reports a persistent 429 as rate limiting, with LLM_MAX_RETRIES + 1 attempts', async () => {
      server.script = () => openAiReply.rateLimited();
      const err = (await reader({ LLM_MAX_RETRIES: '1' })
        .answer(question(), PASSAGES)
        .catch((e: unknown) => e)) as LlmError;
      expect(err.code).toBe('RATE_LIMITED');
      expect(err.message).toContain('answered 429 Too Many Requests twice');
      expect(err.message).toContain('LLM_MAX_RETRIES');
      expect(server.requests).toHaveLength(2);
    });

    it('does not wait for a Retry-After longer than it would wait at all', async () => {
      server.script = () => openAiReply.rateLimited(120);
      await expect(reader().answer(question(), PASSAGES)).rejects.toThrow('asked to wait 120 s before retrying');
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a refused key', async () => {
      server.script = () => openAiReply.error(401, { message: 'Incorrect API key provided' });
      const err = (await reader()
        .answer(question(), PASSAGES)
        .catch((e: unknown) => e)) as LlmError;
      expect(err.code).toBe('UNAUTHORIZED');
      expect(err.message).toContain('answered 401 Unauthorized (last: Incorrect API key provided); check LLM_API_KEY.');
      expect(server.requests).toHaveLength(1);
    });

    it('bounds every attempt by LLM_TIMEOUT_MS, and retries a timeout', async () => {
      server.enqueue(openAiReply.slow(5_000, openAiReply.output(answer())), openAiReply.output(answer()));
      const started = Date.now();
      const result = await reader({ LLM_TIMEOUT_MS: '300' }).answer(question(), PASSAGES);
      expect(result.found).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(server.requests).toHaveLength(2);
    });

    it('gives up on an endpoint that never answers', async () => {
      server.script = () => openAiReply.hang();
      const started = Date.now();
      const err = (await reader({ LLM_TIMEOUT_MS: '200', LLM_MAX_RETRIES: '1' })
        .answer(question(), PASSAGES)
        .catch((e: unknown) => e)) as LlmError;
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toContain('did not answer within 200 ms (LLM_TIMEOUT_MS) twice');
      expect(err.message).toContain('raise LLM_TIMEOUT_MS');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('retries output that is not JSON, saying what was wrong, then uses the answer', async () => {
      server.enqueue(openAiReply.malformed(), openAiReply.output(answer()));
      const result = await reader().answer(question(), PASSAGES);
      expect(result.found).toBe(true);
      expect(server.requests).toHaveLength(2);
      const retry = userText(server.requests[1].body!.messages);
      expect(retry[retry.length - 1]).toContain('Your previous reply could not be used: it is not valid JSON');
    });

    it('retries output that breaks the schema, and gives up on it in the end', async () => {
      server.script = () => openAiReply.output(answer({ value: 20270331 }));
      const err = (await reader()
        .answer(question(), PASSAGES)
        .catch((e: unknown) => e)) as LlmError;
      expect(err.code).toBe('MALFORMED_OUTPUT');
      expect(err.message).toContain('replied with output that is not an answer in the requested JSON schema three times');
      expect(err.message).toContain('/value must be string');
      expect(err.message).toContain('LLM_STRUCTURED_OUTPUT');
      expect(server.requests).toHaveLength(3);
    });

    it('retries a malformed function call', async () => {
      server.enqueue(openAiReply.output('{"found": tru'), openAiReply.output(answer()));
      const result = await reader({ LLM_STRUCTURED_OUTPUT: 'function_calling' }).answer(question(), PASSAGES);
      expect(result.found).toBe(true);
      expect(server.requests).toHaveLength(2);
    });

    it('reports an unreachable server', async () => {
      const r = createLlmReader(loadConfig(LlmEnv, { LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm', LLM_MAX_RETRIES: '1' }), {
        retryBaseDelayMs: 5,
      });
      const err = (await r.answer(question(), PASSAGES).catch((e: unknown) => e)) as LlmError;
      expect(err.code).toBe('UNREACHABLE');
      expect(err.message).toContain('The LLM endpoint at http://127.0.0.1:1/v1 (model m) could not be reached twice');
      expect(err.message).toContain('check LLM_BASE_URL');
    });
  });

  describe('abort', () => {
    it('ends a pending request at once', async () => {
      server.script = () => openAiReply.hang();
      const controller = new AbortController();
      const started = Date.now();
      const pending = reader({ LLM_TIMEOUT_MS: '60000' }).answer(question(), PASSAGES, controller.signal);
      setTimeout(() => controller.abort(), 100);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(server.requests).toHaveLength(1);
    });

    it('ends the wait between attempts', async () => {
      server.script = () => openAiReply.rateLimited(20);
      const controller = new AbortController();
      const pending = reader({}, { maxRetryDelayMs: 60_000 }).answer(question(), PASSAGES, controller.signal);
      setTimeout(() => controller.abort(new Error('job cancelled')), 200);
      await expect(pending).rejects.toThrow('job cancelled');
      expect(server.requests).toHaveLength(1);
    });

    it('does not start when already aborted', async () => {
      await expect(reader().answer(question(), PASSAGES, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
      expect(server.requests).toHaveLength(0);
    });
  });
});

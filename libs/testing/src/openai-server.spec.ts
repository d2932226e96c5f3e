import { openAiReply, startOpenAiServer, type TestOpenAiServer } from './openai-server';

/** The test double itself, spoken to with plain fetch as any OpenAI client would. */
describe('startOpenAiServer', () => {
  let server: TestOpenAiServer;

  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(() => server.stop());
  beforeEach(() => server.reset());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers },
      body: JSON.stringify(body),
    });

  const schema = { type: 'object', properties: { found: { type: 'boolean' } }, required: ['found'], additionalProperties: false };
  const messages = [{ role: 'user', content: 'Q?' }];

  it('answers a json_schema request with the output as message content, and records the request', async () => {
    server.enqueue(openAiReply.output({ found: true }));
    const res = await post({
      model: 'm',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; choices: Array<{ message: { content: string }; finish_reason: string }> };
    expect(body.object).toBe('chat.completion');
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ found: true });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'm', messages },
      structuredOutput: { method: 'json_schema', name: 'answer', schema, strict: true },
    });
  });

  it('answers a function-calling request with a call to the function tool_choice names', async () => {
    server.enqueue(openAiReply.output({ found: false }));
    const res = await post({
      model: 'm',
      messages,
      tools: [{ type: 'function', function: { name: 'answer', parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'answer' } },
    });
    const body = (await res.json()) as {
      choices: Array<{
        message: { content: null; tool_calls: Array<{ type: string; function: { name: string; arguments: string } }> };
        finish_reason: string;
      }>;
    };
    const call = body.choices[0].message.tool_calls[0];
    expect(call.function.name).toBe('answer');
    expect(JSON.parse(call.function.arguments)).toEqual({ found: false });
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(server.requests[0].structuredOutput).toEqual({ method: 'function_calling', name: 'answer', schema });
  });

  it('answers with the tool calls the script names, whatever tools were offered', async () => {
    server.enqueue(
      openAiReply.toolCalls({ name: 'search', arguments: { query: 'rent' } }, { name: 'read', arguments: '{"id":', id: 'call_x' }),
    );
    const tools = ['search', 'read'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
    const res = await post({ model: 'm', messages, tools });
    const body = (await res.json()) as {
      choices: Array<{
        message: { content: null; tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> };
        finish_reason: string;
      }>;
    };
    const [search, read] = body.choices[0].message.tool_calls;
    expect(search.function).toEqual({ name: 'search', arguments: '{"query":"rent"}' });
    expect(read).toEqual({ id: 'call_x', type: 'function', function: { name: 'read', arguments: '{"id":' } });
    expect(search.id).not.toBe(read.id);
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.content).toBeNull();
  });

  it('streams server-sent events when asked to', async () => {
    server.enqueue(openAiReply.output('plain text'));
    const res = await post({ model: 'm', messages, stream: true });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events[events.length - 1]).toBe('data: [DONE]');
    const deltas = events
      .slice(0, -1)
      .map((e) => (JSON.parse(e.slice('data: '.length)) as { choices: Array<{ delta: { content?: string } }> }).choices[0].delta);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('plain text');
  });

  it('sends scripted errors with their headers, in queue order, then asks the script', async () => {
    server.enqueue(openAiReply.rateLimited(2), openAiReply.error(500));
    server.script = (_req, index) => openAiReply.output({ index });
    const first = await post({ model: 'm', messages });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(((await first.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect((await post({ model: 'm', messages })).status).toBe(500);
    const third = (await (await post({ model: 'm', messages })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(third.choices[0].message.content)).toEqual({ index: 2 });
  });

  it('says so when a request has no scripted reply', async () => {
    const res = await post({ model: 'm', messages });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('no scripted reply');
  });

  it('sends raw bodies as they are', async () => {
    server.enqueue(openAiReply.raw(200, '{"choices": [', { 'x-test': '1' }));
    const res = await post({ model: 'm', messages });
    expect(res.headers.get('x-test')).toBe('1');
    expect(await res.text()).toBe('{"choices": [');
  });

  it('delays slow replies and lets a client give up on them', async () => {
    server.enqueue(openAiReply.slow(150, openAiReply.output({ found: true })), openAiReply.hang());
    const started = Date.now();
    expect((await post({ model: 'm', messages })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await expect(
      fetch(`${server.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages }),
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
    expect(server.requests).toHaveLength(2);
  });

  it('lists its model and refuses other routes', async () => {
    const models = (await (await fetch(`${server.baseUrl}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data[0].id).toBe('test-model');
    expect((await fetch(`${server.baseUrl}/completions`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('stops even while a request hangs', async () => {
    const other = await startOpenAiServer();
    other.enqueue(openAiReply.hang());
    const pending = fetch(`${other.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages }) }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 50));
    await other.stop();
    // fetch's errors come from another realm than Jest's Error.
    expect(await pending).toMatchObject({ message: 'fetch failed' });
  });
});

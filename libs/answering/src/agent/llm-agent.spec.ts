import 'reflect-metadata';
import { openAiReply, startOpenAiServer, type OpenAiChatMessage, type TestOpenAiServer } from '@docintel/testing';
import { LlmError } from '../llm/llm-endpoint';
import { NO_ANSWER } from './builtin-agent';
import { LlmAgent, type LlmAgentOptions } from './llm-agent';
import { aPassage, fakeToolbox, recordingTrace } from './testing/fake-toolbox';
import { AgentRunFailed, type AgentRunRequest } from './types';

/**
 * The LLM agent's loop through LangChain's ChatOpenAI against a local server that speaks the
 * chat-completions wire protocol, replying from a script. What is tested is our side: the
 * requests sent (tools, messages, tool results), and what is done with the replies.
 */

const LEASE = aPassage('The lease ends on 31 March 2027 and may be renewed once.', { id: 'n-1', fileId: 'f-1', fileName: 'lease.pdf' });
const RENT = aPassage('Monthly rent is EUR 1250 payable in advance.', { id: 'n-2', fileId: 'f-1', fileName: 'lease.pdf' });

const request = (overrides: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  messages: [{ role: 'user', content: 'When does the lease end?' }],
  maxIterations: 5,
  completion: { model: 'FAST' },
  ...overrides,
});

const search = (query: string) => openAiReply.toolCalls({ name: 'search_passages', arguments: { query } });
const finalAnswer = (answer: unknown, sources: string[] = [], explanation = 'Read from the lease.') =>
  openAiReply.toolCalls({ name: 'final_answer', arguments: { answer, explanation, sources } });

/** The text of the tool results a request carried back to the model. */
const toolResults = (messages: OpenAiChatMessage[]) => messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('LlmAgent over an OpenAI-compatible endpoint', () => {
  let server: TestOpenAiServer;

  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(() => server.stop());
  beforeEach(() => server.reset());
  afterEach(() => jest.restoreAllMocks());

  const agent = (overrides: Partial<LlmAgentOptions> = {}) =>
    new LlmAgent({
      provider: 'openai',
      baseUrl: server.baseUrl,
      apiKey: 'sk-test',
      timeoutMs: 5000,
      maxRetries: 1,
      retryBaseDelayMs: 1,
      models: { FAST: 'small-model', BALANCED: 'large-model' },
      ...overrides,
    });

  it('searches, then answers with final_answer citing a handle, which becomes evidence', async () => {
    server.enqueue(search('lease end date'), finalAnswer('31 March 2027', ['S1']));
    const { steps, trace } = recordingTrace();
    const result = await agent().run(
      request({ completion: { model: 'BALANCED', temperature: 0.3, maxTokens: 500 } }),
      fakeToolbox([LEASE, RENT]),
      trace,
    );

    expect(result.answer).toBe('31 March 2027');
    expect(result.explanation).toBe('Read from the lease.');
    expect(result.iterations).toBe(2);
    expect(result.evidence).toHaveLength(1);
    const [evidence] = result.evidence;
    expect(evidence).toMatchObject({ kind: 'passage', passage: { id: 'n-1' } });
    if (evidence.kind === 'passage') expect(evidence.passage.text.slice(evidence.start, evidence.end)).toBe('31 March 2027');
    expect(steps).toMatchObject([
      { iteration: 1, tool: 'search_passages', arguments: { query: 'lease end date' } },
      { iteration: 2, tool: 'final_answer', result: { answer: expect.any(String), citations: 1 } },
    ]);

    const [first, second] = server.requests.map((r) => r.body!);
    expect(first.model).toBe('large-model');
    expect(first.temperature).toBe(0.3);
    expect(first.max_tokens).toBe(500);
    expect(first.tools?.map((t) => t.function.name)).toEqual([
      'search_passages',
      'read_node',
      'list_files',
      'ask_questions',
      'extract_metadata',
      'final_answer',
    ]);
    expect(first.tools?.[0].function.parameters).toMatchObject({ required: ['query'], properties: { limit: { maximum: 50 } } });
    expect(first.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('lease.pdf (fileId f-1)') });
    expect(first.messages[1]).toEqual({ role: 'user', content: 'When does the lease end?' });
    const [passages] = toolResults(second.messages);
    expect(JSON.parse(passages)).toMatchObject({ passages: [{ handle: 'S1', nodeId: 'n-1', text: LEASE.text }] });
  });

  it('feeds a tool error back to the model, and takes a plain-text reply with [S1] markers as the answer', async () => {
    server.enqueue(
      openAiReply.toolCalls({ name: 'read_node', arguments: { fileId: 'not-yours', nodeId: 'n-1' } }),
      search('lease'),
      openAiReply.output('The lease ends on 31 March 2027 [S1].'),
    );
    const { steps, trace } = recordingTrace();
    const result = await agent().run(request(), fakeToolbox([LEASE, RENT]), trace);
    const refused = toolResults(server.requests[1].body!.messages);
    expect(JSON.parse(refused[0])).toEqual({ error: expect.stringContaining('"not-yours" is not one of the files this agent may read') });
    expect(steps[0]).toMatchObject({ iteration: 1, tool: 'read_node', error: expect.stringContaining('not-yours') });
    expect(result.answer).toBe('The lease ends on 31 March 2027 [S1].');
    expect(result.evidence).toMatchObject([{ kind: 'passage', passage: { id: 'n-1' } }]);
    expect(result.iterations).toBe(3);
  });

  it('takes found: false as "not found", with the model\'s reason and no evidence', async () => {
    server.enqueue(
      search('lease deposit'),
      openAiReply.toolCalls({
        name: 'final_answer',
        arguments: { found: false, answer: '', explanation: 'The lease does not mention a deposit.', sources: [] },
      }),
    );
    const result = await agent().run(
      request({ messages: [{ role: 'user', content: 'How large is the deposit?' }] }),
      fakeToolbox([LEASE, RENT]),
      recordingTrace().trace,
    );
    expect(result).toMatchObject({ answer: NO_ANSWER, explanation: 'The lease does not mention a deposit.', evidence: [], iterations: 2 });
    const finalTool = server.requests[0].body!.tools!.find((t) => t.function.name === 'final_answer')!;
    expect(finalTool.function.parameters).toMatchObject({ properties: { found: { type: 'boolean' } } });
    expect(server.requests[0].body!.messages[0].content).toMatch(/found set to false/);
  });

  it('asks once for the sources of an answer that cites none, then answers "not found" rather than an unchecked value', async () => {
    server.enqueue(search('lease end'), finalAnswer('30 June 2030', []), finalAnswer('30 June 2030', ['S9']));
    const { steps, trace } = recordingTrace();
    const result = await agent().run(request(), fakeToolbox([LEASE, RENT]), trace);
    expect(result.answer).toBe(NO_ANSWER);
    expect(result.evidence).toEqual([]);
    expect(result.explanation).toMatch(/could not be checked against the documents: its sources \(S9\) are not handles/);
    const repair = toolResults(server.requests[2].body!.messages).pop();
    expect(repair).toMatch(/it cites no source.*found set to false/);
    expect(steps.filter((st) => st.tool === 'final_answer').map((st) => !!st.error)).toEqual([true, true]);
  });

  it('takes an answer cited after the repair request', async () => {
    server.enqueue(search('lease end'), finalAnswer('31 March 2027', []), finalAnswer('31 March 2027', ['S1']));
    const result = await agent().run(request(), fakeToolbox([LEASE, RENT]), recordingTrace().trace);
    expect(result.answer).toBe('31 March 2027');
    expect(result.evidence).toMatchObject([{ kind: 'passage', passage: { id: 'n-1' } }]);
  });

  it('answers arguments that are not JSON with an error the model can act on', async () => {
    // LangChain warns when a reply's only tool call cannot be parsed; that is this test's point.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.enqueue(
      openAiReply.toolCalls({ name: 'search_passages', arguments: '{"query": "lease' }),
      openAiReply.toolCalls({ name: 'final_answer', arguments: { found: false, answer: '', explanation: 'Not stated.', sources: [] } }),
    );
    const { steps, trace } = recordingTrace();
    const result = await agent().run(request(), fakeToolbox([LEASE]), trace);
    expect(result).toMatchObject({ answer: NO_ANSWER, explanation: 'Not stated.' });
    expect(JSON.parse(toolResults(server.requests[1].body!.messages)[0]).error).toMatch(/not valid JSON/);
    expect(steps[0]).toMatchObject({ tool: 'search_passages', error: expect.stringMatching(/not valid JSON/) });
  });

  describe('with an output schema', () => {
    const outputSchema = {
      type: 'object',
      properties: { end_date: { type: 'string', format: 'date' }, monthly_rent: { type: 'number' } },
      required: ['end_date', 'monthly_rent'],
      additionalProperties: false,
    };

    it('sends the schema as final_answer.answer, and asks once for a repair of an invalid answer', async () => {
      server.enqueue(
        search('lease end rent'),
        finalAnswer({ end_date: '31/03/2027', monthly_rent: 'EUR 1250' }, ['S1']),
        finalAnswer({ end_date: '2027-03-31', monthly_rent: 1250 }, ['S1', 'S2']),
      );
      const result = await agent().run(request({ outputSchema }), fakeToolbox([LEASE, RENT]), recordingTrace().trace);

      expect(result.answer).toEqual({ end_date: '2027-03-31', monthly_rent: 1250 });
      expect(result.iterations).toBe(3);
      expect(result.evidence.map((e) => e.kind === 'passage' && e.passage.text.slice(e.start, e.end))).toEqual([LEASE.text, '1250']);
      const finalTool = server.requests[0].body!.tools!.find((t) => t.function.name === 'final_answer')!;
      expect(finalTool.function.parameters).toMatchObject({ properties: { answer: { properties: outputSchema.properties } } });
      const repair = toolResults(server.requests[2].body!.messages).pop()!;
      expect(repair).toContain('/end_date must match format "date"');
      expect(repair).toContain('/monthly_rent must be number');
    });

    it('fails with the schema errors when the repaired answer is still invalid', async () => {
      server.enqueue(finalAnswer({ end_date: '2027-03-31' }), finalAnswer({ end_date: '2027-03-31', monthly_rent: 'a lot' }));
      const run = agent().run(request({ outputSchema }), fakeToolbox([LEASE, RENT]), recordingTrace().trace);
      await expect(run).rejects.toThrow(AgentRunFailed);
      await expect(run).rejects.toMatchObject({ details: ['/monthly_rent must be number'] });
      expect(server.requests).toHaveLength(2);
    });
  });

  it('offers only final_answer, forced, on the last iteration', async () => {
    server.enqueue(search('lease'), search('lease term'));
    // The last call: the test server answers a forced function with a call to it.
    server.script = () => openAiReply.output({ answer: '31 March 2027', explanation: 'From the lease.', sources: ['S1'] });
    const result = await agent().run(request({ maxIterations: 3 }), fakeToolbox([LEASE]), recordingTrace().trace);

    expect(server.requests).toHaveLength(3);
    expect(server.requests[1].body!.tools).toHaveLength(6);
    const last = server.requests[2].body!;
    expect(last.tools?.map((t) => t.function.name)).toEqual(['final_answer']);
    expect(last.tool_choice).toEqual({ type: 'function', function: { name: 'final_answer' } });
    expect(result).toMatchObject({ answer: '31 March 2027', iterations: 3 });
  });

  it('fails clearly when the model will not answer on the last iteration', async () => {
    server.enqueue(search('lease'), search('lease again'));
    const run = agent().run(request({ maxIterations: 2 }), fakeToolbox([LEASE]), recordingTrace().trace);
    await expect(run).rejects.toThrow(/no final answer within max_iterations \(2\).*search_passages/);
  });

  it('ends with an LlmError the service can classify when the endpoint keeps failing', async () => {
    server.enqueue(openAiReply.error(503), openAiReply.error(503));
    const run = agent().run(request(), fakeToolbox([LEASE]), recordingTrace().trace);
    await expect(run).rejects.toBeInstanceOf(LlmError);
    await expect(run).rejects.toMatchObject({ code: 'UNAVAILABLE', attempts: 2 });
  });

  it('is named after its models', () => {
    expect(agent().name).toBe('llm:small-model,large-model');
    expect(agent({ models: { FAST: 'm', BALANCED: 'm' } }).name).toBe('llm:m');
  });
});

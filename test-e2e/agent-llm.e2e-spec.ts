import {
  openAiReply,
  startOpenAiServer,
  TestStack,
  type OpenAiChatMessage,
  type RecordedRequest,
  type RunningApp,
  type ScriptedReply,
  type TestOpenAiServer,
} from '@docintel/testing';
import { json } from './support/http';
import { eventually, Indexer } from './support/indexing';
import type { AgentAnnotation, AgentJob, AgentOutputs, AgentTrace } from './support/agent';

/**
 * Agent jobs run by the LLM engine (AGENT_ENGINE=llm) with every service running for real; the
 * only double is the model: a local server speaking the OpenAI chat-completions protocol, whose
 * replies are scripted per job (keyed by the job's user message) from what each request carries,
 * the way a model would read the tool results. What is tested is our side: the requests sent
 * (tools, conversation, tool results and errors), and what the job makes of the replies (answer,
 * citations as annotations, trace, structured output, failures, a crashed replica).
 *
 * Two job-orchestrator replicas share the queue; each has its own LLM_API_KEY, so a request's
 * bearer token tells which replica made it.
 */

type Job = AgentJob;
type Outputs = AgentOutputs;
type Annotation = AgentAnnotation;
type Trace = AgentTrace;
interface ToolPassage {
  handle: string;
  fileId: string;
  fileName: string;
  nodeId: string;
  text: string;
}
interface ToolAnswer {
  question: string;
  found: boolean;
  answer: string;
  sources: string[];
}
interface TreeNode {
  id: string;
  children: TreeNode[];
}

const MODEL = 'docintel-agent-test';
const CONTRACT = [
  'SERVICE AGREEMENT',
  '',
  'This agreement is made between Acme Ltd and Globex GmbH.',
  '',
  'Term. The agreement starts on 1 February 2024 and runs for two years.',
  '',
  'Termination. Either party may end the agreement in writing.',
  'The termination notice period is 90 days.',
  '',
  'Fees. The fee of EUR 4,000 is paid monthly, in advance.',
  '',
].join('\n');
const NOTICE = 'The termination notice period is 90 days.';
const NOTICE_LINE = CONTRACT.split('\n').indexOf(NOTICE) + 1;
/** Another tenant's document: none of it may reach the model. */
const SECRET = 'The vault code of Carol is pelican-blue.';

/** A scripted model for one job: the reply to the request of the model's `turn` (0-based) in this run. */
type Play = (request: RecordedRequest, turn: number) => ScriptedReply;

const textOf = (m: OpenAiChatMessage): string =>
  typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('');
const messagesOf = (r: RecordedRequest): OpenAiChatMessage[] => r.body?.messages ?? [];
/** The message the job answers: the conversation's last user message. */
const lastUser = (r: RecordedRequest): string =>
  textOf(
    messagesOf(r)
      .filter((m) => m.role === 'user')
      .at(-1) ?? { role: 'user', content: '' },
  );
/** How many times the model already replied in this run: assistant messages after the last user message. */
const turnOf = (r: RecordedRequest): number => {
  const messages = messagesOf(r);
  const user = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(user + 1).filter((m) => m.role === 'assistant').length;
};
/** The tool results the request carries back for the model's last reply, parsed when JSON. */
const toolResults = (r: RecordedRequest): unknown[] => {
  const messages = messagesOf(r);
  const assistant = messages.map((m) => m.role).lastIndexOf('assistant');
  return messages
    .slice(assistant + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => {
      try {
        return JSON.parse(textOf(m)) as unknown;
      } catch {
        return textOf(m);
      }
    });
};
const passagesIn = (result: unknown): ToolPassage[] => (result as { passages?: ToolPassage[] }).passages ?? [];
const finalAnswer = (answer: unknown, sources: string[], explanation = 'Read from the service agreement.') =>
  openAiReply.toolCalls({ name: 'final_answer', arguments: { answer, explanation, sources } });
const search = (query: string, extra: Record<string, unknown> = {}) =>
  openAiReply.toolCalls({ name: 'search_passages', arguments: { query, ...extra } });
/** The handle of the passage among `passages` that contains `text`. */
const handleOf = (passages: ToolPassage[], text: string): string => {
  const found = passages.find((p) => p.text.includes(text));
  if (!found) throw new Error(`no passage holds "${text}": ${JSON.stringify(passages)}`);
  return found.handle;
};

describe('agent jobs (LLM engine against an OpenAI-compatible server)', () => {
  let stack: TestStack;
  let llm: TestOpenAiServer;
  let alice: Indexer;
  let carol: Indexer;
  let contract: string;
  let carolsFile: string;
  let carolsNode: string;
  const plays = new Map<string, Play>();
  const replicas: Array<{ key: string; apiKey: string; app: RunningApp }> = [];

  const startReplica = async () => {
    const apiKey = `sk-replica-${replicas.length + 1}`;
    const app = await stack.startApp('job-orchestrator', {
      AGENT_ENGINE: 'llm',
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: apiKey,
      LLM_MODEL: MODEL,
      LLM_TIMEOUT_MS: '60000',
      LLM_MAX_RETRIES: '0',
      JOB_HEARTBEAT_SECONDS: '1',
      JOB_STALE_SECONDS: '4',
      JOB_SWEEP_INTERVAL_SECONDS: '1',
    });
    const key = [...stack.apps].find(([, a]) => a === app)![0];
    replicas.push({ key, apiKey, app });
  };

  beforeAll(async () => {
    llm = await startOpenAiServer({ model: MODEL });
    llm.script = (request) => {
      const play = plays.get(lastUser(request));
      return play ? play(request, turnOf(request)) : openAiReply.error(500, { message: `no play for "${lastUser(request)}"` });
    };
    stack = await TestStack.start({ label: 'agentllm', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    await startReplica();
    await startReplica();
    alice = await Indexer.forNamespace(stack, 'agentllm', 'alice@agentllm.test');
    carol = await Indexer.forNamespace(stack, 'elsewhere', 'carol@elsewhere.test');
    const [mine, theirs] = await Promise.all([
      alice.index('contracts/service-agreement.txt', { bytes: CONTRACT }),
      carol.index('notes/secret.txt', { bytes: `${SECRET}\n` }),
    ]);
    // Embeddings too: until they exist the search is BM25 alone, and which passages it returns would depend on timing.
    const [done, other] = await Promise.all([
      alice.stepsSettled(mine.id.id, ['passage_indexing', 'node_embedding'], 120_000),
      carol.stepsSettled(theirs.id.id, ['passage_indexing', 'node_embedding'], 120_000),
    ]);
    for (const f of [done, other]) {
      expect([f.lastIndexationInfos.status, f.additionalInfos.node_embedding?.status]).toEqual(['SUCCESS', 'SUCCESS']);
    }
    contract = done.id.id;
    carolsFile = other.id.id;
    // A real node of Carol's document, so that only the file check can refuse it.
    const tree: TreeNode = await carol.tree(carolsFile);
    const leaf = (n: TreeNode): TreeNode => (n.children.length ? leaf(n.children[0]) : n);
    carolsNode = leaf(tree).id;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const create = async (body: Record<string, unknown>) => json<Job>(await alice.call('POST', '/api/core/agent/jobs', body));
  const finished = (jobId: string, timeoutMs = 60_000) =>
    eventually(
      `agent job ${jobId}`,
      async () => json<Job>(await alice.call('GET', `/api/core/agent/jobs/${jobId}`)),
      (j) => ['SUCCESS', 'FAILED', 'ABORTED'].includes(j.status),
      timeoutMs,
    );
  const outputs = async (jobId: string) => json<Outputs>(await alice.call('GET', `/api/core/agent/jobs/${jobId}/results`));
  const annotations = async (jobId: string) => json<Annotation[]>(await alice.call('GET', `/api/core/agent/jobs/${jobId}/annotations`));
  const trace = async (jobId: string) => json<Trace>(await alice.call('GET', `/api/core/agent/jobs/${jobId}/trace`));
  /** The requests the model received for the job answering `message`. */
  const requestsFor = (message: string) => llm.requests.filter((r) => lastUser(r) === message);

  it('runs the tool-calling loop: search, read around a passage, answer citing a handle; the next turn carries the conversation', async () => {
    const message = 'How long is the termination notice period?';
    let readResult: ToolPassage[] = [];
    plays.set(message, (request, turn) => {
      if (turn === 0) return search('termination notice period');
      if (turn === 1) {
        const hit = passagesIn(toolResults(request)[0]).find((p) => p.text.includes('90 days'));
        if (!hit) return finalAnswer('The documents do not say.', []);
        return openAiReply.toolCalls({ name: 'read_node', arguments: { fileId: hit.fileId, nodeId: hit.nodeId, before: 1, after: 1 } });
      }
      readResult = passagesIn(toolResults(request)[0]);
      return finalAnswer(NOTICE, [handleOf(readResult, '90 days')], 'The termination clause states it.');
    });

    const created = await create({
      message,
      files: { fileIds: [contract] },
      completion_config: { model: 'FAST', temperature: 0.2, max_completion_tokens: 400 },
    });
    expect(created).toMatchObject({ status: 'PENDING', taskType: 'AGENT' });
    expect(await finished(created.jobId)).toMatchObject({ status: 'SUCCESS' });

    // What the model was sent: the tools with their JSON Schemas, our instructions naming the file, the question.
    const requests = requestsFor(message);
    expect(requests).toHaveLength(3);
    const first = requests[0].body!;
    expect(first).toMatchObject({ model: MODEL, temperature: 0.2, max_tokens: 400 });
    expect(requests[0].headers.authorization).toMatch(/^Bearer sk-replica-\d$/);
    const tools = Object.fromEntries((first.tools ?? []).map((t) => [t.function.name, t.function]));
    expect(Object.keys(tools)).toEqual(['search_passages', 'read_node', 'list_files', 'ask_questions', 'extract_metadata', 'final_answer']);
    expect(first.tool_choice).toBeUndefined();
    expect(tools.search_passages.parameters).toMatchObject({
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: { type: 'string', minLength: 1 },
        fileIds: { type: 'array' },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
    });
    expect(tools.read_node.parameters).toMatchObject({
      type: 'object',
      required: ['fileId', 'nodeId'],
      properties: { before: { type: 'integer' } },
    });
    expect(tools.ask_questions.parameters).toMatchObject({
      required: ['questions'],
      properties: { questions: { type: 'array', minItems: 1 } },
    });
    expect(tools.final_answer.parameters).toMatchObject({
      required: ['answer', 'explanation', 'sources'],
      properties: { answer: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
    });
    expect(first.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining(`service-agreement.txt (fileId ${contract})`),
    });
    expect(first.messages.slice(1)).toEqual([{ role: 'user', content: message }]);

    // The search result went back as a tool message answering the call; read_node gave the passage and its neighbours.
    const [, second, third] = requests.map((r) => r.body!);
    const call = second.messages.find((m) => m.role === 'assistant')!.tool_calls![0];
    expect(call.function.name).toBe('search_passages');
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.id });
    const searched = passagesIn(toolResults(requests[1])[0]);
    expect(searched[0]).toMatchObject({ handle: 'S1', fileId: contract, fileName: 'service-agreement.txt', nodeId: expect.any(String) });
    expect(third.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    // read_node: the passage with one neighbour on each side, in reading order; a passage seen before keeps its handle.
    expect(readResult.map((p) => p.text)).toEqual([
      expect.stringContaining('runs for two years'),
      expect.stringContaining(NOTICE),
      expect.stringContaining('paid monthly'),
    ]);
    for (const p of readResult) expect(p.handle).toBe(searched.find((s) => s.nodeId === p.nodeId)?.handle);

    const out = await outputs(created.jobId);
    expect(out).toMatchObject({ answer: NOTICE, explanation: 'The termination clause states it.', conversationId: expect.any(String) });
    expect(out.referenceIds).toHaveLength(1);
    const cited = await annotations(created.jobId);
    expect(cited.map((a) => a.id.id)).toEqual(out.referenceIds);
    expect(cited[0]).toMatchObject({
      type: 'DOCUMENT_STATEMENT',
      id: { entityType: 'ANNOTATION' },
      data: { type: 'DOCUMENT_STATEMENT', documentId: contract, content: expect.stringContaining(NOTICE) },
    });
    expect(cited[0].data.positions).toContainEqual(expect.objectContaining({ type: 'LINE', line_number: NOTICE_LINE }));

    const steps = await trace(created.jobId);
    expect(steps).toMatchObject({ jobId: created.jobId, engine: `llm:${MODEL}` });
    // Every tool call is traced, the final answer too.
    expect(steps.steps.map((s) => [s.tool, s.iteration, s.attempt])).toEqual([
      ['search_passages', 1, 1],
      ['read_node', 2, 1],
      ['final_answer', 3, 1],
    ]);
    expect(steps.steps[0]).toMatchObject({ arguments: { query: 'termination notice period' }, startedAt: expect.any(String) });
    expect(JSON.stringify(steps.steps[1].result)).toContain('90 days');

    // The second turn: the model reads the first turn's question and answer before the new message.
    const next = 'And how often is the fee paid?';
    plays.set(next, () => finalAnswer('Monthly, in advance.', []));
    const again = await create({ message: next, conversation_id: out.conversationId });
    expect(await finished(again.jobId)).toMatchObject({ status: 'SUCCESS' });
    const [turn2] = requestsFor(next);
    expect(turn2.body!.messages.slice(1).map((m) => ({ role: m.role, content: textOf(m) }))).toEqual([
      { role: 'user', content: message },
      { role: 'assistant', content: NOTICE },
      { role: 'user', content: next },
    ]);
    expect(textOf(turn2.body!.messages[0])).toContain(`fileId ${contract}`);
    expect(await outputs(again.jobId)).toMatchObject({
      answer: 'Monthly, in advance.',
      referenceIds: [],
      conversationId: out.conversationId,
    });
  });

  it('asks once for a repair of an answer the output schema refuses; a second refusal fails the job naming the field', async () => {
    const schema = {
      type: 'object',
      properties: {
        notice_days: { type: 'integer', description: 'Termination notice period in days' },
        fee_period: { type: 'string', enum: ['monthly', 'yearly'] },
      },
      required: ['notice_days', 'fee_period'],
      additionalProperties: false,
    };
    const repaired = 'Summarise the notice period and the fee period.';
    const stubborn = 'Summarise the notice period and the fee period, please.';
    let repairRequest = '';
    let sources: string[] = [];
    plays.set(repaired, (request, turn) => {
      if (turn === 0) return search('notice period fee');
      const results = toolResults(request);
      if (turn === 1) {
        const passages = passagesIn(results[0]);
        sources = [handleOf(passages, '90 days'), handleOf(passages, 'paid monthly')];
        return finalAnswer({ notice_days: 90 }, sources);
      }
      repairRequest = String(results[0]);
      return finalAnswer({ notice_days: 90, fee_period: 'monthly' }, sources);
    });
    plays.set(stubborn, (_request, turn) => finalAnswer(turn === 0 ? { notice_days: 90 } : { notice_days: 'ninety' }, []));

    const [good, bad] = await Promise.all([
      create({ message: repaired, files: { fileIds: [contract] }, output_model_schema: schema }),
      create({ message: stubborn, files: { fileIds: [contract] }, output_model_schema: schema }),
    ]);
    const [goodEnd, badEnd] = await Promise.all([finished(good.jobId), finished(bad.jobId)]);

    // The schema is final_answer's "answer" parameter.
    const finalTool = requestsFor(repaired)[0].body!.tools!.find((t) => t.function.name === 'final_answer')!;
    expect(finalTool.function.parameters).toMatchObject({
      properties: { answer: { type: 'object', properties: schema.properties, required: schema.required } },
    });

    expect(goodEnd).toMatchObject({ status: 'SUCCESS' });
    expect(requestsFor(repaired)).toHaveLength(3);
    expect(repairRequest).toMatch(/\/fee_period is required/);
    const out = await outputs(good.jobId);
    expect(out.answer).toEqual({ notice_days: 90, fee_period: 'monthly' });
    expect(out.referenceIds).toHaveLength(2);
    const cited = await annotations(good.jobId);
    expect(cited.map((a) => a.data.content)).toEqual([expect.stringContaining('90 days'), expect.stringContaining('paid monthly')]);

    expect(badEnd.status).toBe('FAILED');
    expect(badEnd.errorMessage).toMatch(/output schema/);
    expect(badEnd.errorMessage).toMatch(/fee_period/);
    const stubbornRequests = requestsFor(stubborn);
    expect(stubbornRequests).toHaveLength(2);
    expect(String(toolResults(stubbornRequests[1])[0])).toMatch(/\/fee_period is required/);
    expect((await outputs(bad.jobId)).explanation).toMatch(/fee_period/);
  });

  it('runs ask_questions as a QA job of the orchestrator whose cited statements the answer can cite', async () => {
    const message = 'Use the question answering engine: what is the notice period?';
    let answers: ToolAnswer[] = [];
    plays.set(message, (request, turn) => {
      if (turn === 0)
        return openAiReply.toolCalls({
          name: 'ask_questions',
          arguments: { questions: [{ question: 'What is the termination notice period?' }] },
        });
      answers = (toolResults(request)[0] as { answers: ToolAnswer[] }).answers;
      return finalAnswer(answers[0].answer || 'Not found.', answers[0].sources, 'The question answering engine read it.');
    });

    const created = await create({ message, files: { fileIds: [contract] } });
    expect(await finished(created.jobId)).toMatchObject({ status: 'SUCCESS' });

    // The sub-job is a QA job of Alice, named after the agent job.
    const page = await json<{ data: Job[] }>(await alice.call('GET', '/api/core/qa/jobs?page=0&pageSize=50'));
    const subJobs = page.data.filter((j) => j.name.startsWith(`Agent ${created.jobId.slice(0, 8)}:`));
    expect(subJobs).toHaveLength(1);
    expect(subJobs[0]).toMatchObject({ status: 'SUCCESS', taskType: 'QA', name: expect.stringContaining('termination notice period') });
    const subAnnotations = await json<Annotation[]>(await alice.call('GET', `/api/core/qa/jobs/${subJobs[0].jobId}/annotations`));

    expect(answers).toEqual([
      expect.objectContaining({
        question: 'What is the termination notice period?',
        found: true,
        answer: expect.stringMatching(/90 days/),
      }),
    ]);
    expect(answers[0].sources.length).toBeGreaterThan(0);
    expect(answers[0].sources.every((s) => /^S\d+$/.test(s))).toBe(true);

    // The cited statements are copied into the agent job: same statement, an annotation of its own.
    const out = await outputs(created.jobId);
    expect(out.answer).toMatch(/90 days/);
    expect(out.referenceIds).toHaveLength(answers[0].sources.length);
    const cited = await annotations(created.jobId);
    expect(cited.map((a) => a.id.id).sort()).toEqual([...out.referenceIds].sort());
    expect(cited.map((a) => a.data.content).join('\n')).toMatch(/90 days/);
    for (const a of cited) {
      const original = subAnnotations.find((s) => s.data.content === a.data.content);
      expect(original).toBeDefined();
      expect(original!.id.id).not.toBe(a.id.id);
      expect(a.data).toEqual(original!.data);
    }

    const steps = await trace(created.jobId);
    expect(steps.steps).toEqual([
      expect.objectContaining({
        tool: 'ask_questions',
        iteration: 1,
        attempt: 1,
        result: expect.objectContaining({ answers: expect.any(Array) }),
      }),
      expect.objectContaining({ tool: 'final_answer', iteration: 2, attempt: 1 }),
    ]);
  });

  it("refuses a tool call naming another tenant's file; the model reads the error and nothing of that tenant reaches it", async () => {
    const message = 'What is the vault code?';
    plays.set(message, (_request, turn) => {
      if (turn === 0) {
        return openAiReply.toolCalls(
          { name: 'read_node', arguments: { fileId: carolsFile, nodeId: carolsNode } },
          { name: 'search_passages', arguments: { query: 'vault code', fileIds: [carolsFile] } },
          { name: 'search_passages', arguments: { query: 'vault code of Carol' } },
        );
      }
      // Nothing about a vault code in Alice's contract: the model says so with found: false.
      return openAiReply.toolCalls({
        name: 'final_answer',
        arguments: { answer: '', found: false, explanation: 'The documents do not give a vault code.', sources: [] },
      });
    });

    const created = await create({ message, files: { fileIds: [contract] } });
    expect(await finished(created.jobId)).toMatchObject({ status: 'SUCCESS' });

    const requests = requestsFor(message);
    expect(requests).toHaveLength(2);
    const [readRefused, searchRefused, searched] = toolResults(requests[1]) as Array<{ error?: string; passages?: ToolPassage[] }>;
    const refusal = new RegExp(`"${carolsFile}" is not one of the files this agent may read`);
    expect(readRefused).toEqual({ error: expect.stringMatching(refusal) });
    expect(searchRefused).toEqual({ error: expect.stringMatching(refusal) });
    // A search over the job's files (the default) finds only Alice's passages.
    expect(searched.passages?.length).toBeGreaterThan(0);
    expect(searched.passages?.every((p) => p.fileId === contract)).toBe(true);

    const steps = (await trace(created.jobId)).steps;
    expect(steps.map((s) => [s.tool, s.iteration, s.error !== undefined])).toEqual([
      ['read_node', 1, true],
      ['search_passages', 1, true],
      ['search_passages', 1, false],
      ['final_answer', 2, false],
    ]);
    expect(steps[0].error).toMatch(refusal);
    expect(steps[0].result).toBeUndefined();
    expect(await outputs(created.jobId)).toMatchObject({
      answer: 'No answer was found in the documents.',
      explanation: 'The documents do not give a vault code.',
      referenceIds: [],
    });

    // No request of this file's jobs ever carried a word of Carol's document.
    for (const r of llm.requests) {
      expect(r.rawBody).not.toContain('pelican');
      expect(r.rawBody).not.toContain(SECRET);
    }
  });

  it('survives the replica running it being killed: the other replica runs it again, the trace keeps both attempts', async () => {
    const message = 'Durably: what is the notice period?';
    let holder: string | undefined;
    plays.set(message, (request, turn) => {
      const caller = request.headers.authorization;
      holder ??= caller;
      if (turn === 0) return search('notice period');
      if (caller === holder) return openAiReply.hang();
      return finalAnswer('90 days', [handleOf(passagesIn(toolResults(request)[0]), '90 days')]);
    });

    const created = await create({ message, files: { fileIds: [contract] } });
    // The holder searched (a step of attempt 1) and now waits for the model forever.
    await eventually(
      'the holder to wait for the model after its search',
      async () => ({ requests: requestsFor(message).length, steps: (await trace(created.jobId)).steps.length }),
      (s) => s.requests === 2 && s.steps === 1,
      30_000,
    );
    const dead = replicas.find((r) => `Bearer ${r.apiKey}` === holder)!;
    expect(dead).toBeDefined();
    expect(await json<Job>(await alice.call('GET', `/api/core/agent/jobs/${created.jobId}`))).toMatchObject({ status: 'RUNNING' });
    await stack.stopApp(dead.key, 'SIGKILL');
    replicas.splice(replicas.indexOf(dead), 1);
    const survivor = replicas[0];

    expect(await finished(created.jobId, 60_000)).toMatchObject({ status: 'SUCCESS' });
    expect(requestsFor(message).map((r) => r.headers.authorization)).toEqual([
      holder,
      holder,
      `Bearer ${survivor.apiKey}`,
      `Bearer ${survivor.apiKey}`,
    ]);
    const steps = (await trace(created.jobId)).steps;
    expect(steps.map((s) => [s.tool, s.iteration, s.attempt])).toEqual([
      ['search_passages', 1, 1],
      ['search_passages', 1, 2],
      ['final_answer', 2, 2],
    ]);
    const out = await outputs(created.jobId);
    expect(out.answer).toBe('90 days');
    const cited = await annotations(created.jobId);
    expect(cited).toHaveLength(1);
    expect(cited[0].data.content).toContain('90 days');
    expect(cited[0].data.positions).toContainEqual(expect.objectContaining({ type: 'LINE', line_number: NOTICE_LINE }));
  });

  it('fails the job, naming the LLM endpoint, when the endpoint answers 500 (LLM_MAX_RETRIES=0)', async () => {
    const message = 'Is the model there?';
    plays.set(message, () => openAiReply.error(500, { message: 'The model crashed' }));
    const created = await create({ message, files: { fileIds: [contract] } });
    const end = await finished(created.jobId, 30_000);
    expect(end.status).toBe('FAILED');
    expect(end.errorMessage).toContain(`The LLM endpoint at ${llm.baseUrl} (model ${MODEL})`);
    expect(end.errorMessage).toMatch(/500 Internal Server Error/);
    expect(requestsFor(message)).toHaveLength(1);
    const out = await outputs(created.jobId);
    expect(out).toMatchObject({ answer: '', referenceIds: [] });
    expect(out.explanation).toContain('The LLM endpoint at');
  });
});

import type { AgentJobOutputs, CreateAgentJobRequest } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { jobEnded, ok } from './support/client';
import { errorBody } from './support/http';
import { Indexer } from './support/indexing';

/**
 * Agent jobs through the HTTP API with every service running for real and the built-in planner
 * (no language model): a real corpus document (a footballer's Wikipedia page, as text) is indexed,
 * then questions are asked in a stateful conversation, a stateless one and with structured output;
 * every answer is checked against the document and its citations against the lines they point at.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('agent jobs (built-in planner)', () => {
  let stack: TestStack;
  let alice: Indexer;
  let bob: Indexer;
  let carol: Indexer;
  let roberts: string;
  let shinyama: string;
  let carolsFile: string;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'agent' });
    alice = await Indexer.forNamespace(stack, 'agent', 'alice@agent.test');
    bob = await Indexer.forNamespace(stack, 'agent', 'bob@agent.test');
    carol = await Indexer.forNamespace(stack, 'elsewhere', 'carol@elsewhere.test');
    const file = await alice.index('football/norwich-city.txt', { corpus: 'txt/unstructured_norwich-city.txt' });
    roberts = (await alice.stepsSettled(file.id.id, ['passage_indexing'], 180_000)).id.id;
    const paper = await alice.index('papers/shinyama.pdf', { corpus: 'pdf/pdfminer_naacl06-shinyama.pdf' });
    shinyama = (await alice.stepsSettled(paper.id.id, ['passage_indexing', 'ontologies'], 180_000)).id.id;
    const other = await carol.index('notes/secret.txt', { bytes: 'The vault code of Carol is 4711.\n' });
    carolsFile = (await carol.stepsSettled(other.id.id, ['passage_indexing'], 120_000)).id.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (who: Indexer, body: CreateAgentJobRequest, idempotencyKey?: string) =>
    ok(
      who.api.POST('/api/core/agent/jobs', {
        body,
        ...(idempotencyKey !== undefined ? { params: { header: { 'Idempotency-Key': idempotencyKey } } } : {}),
      }),
    );
  const job = (jobId: string) => ({ params: { path: { jobId } } });
  const finished = (jobId: string, who = alice) => jobEnded(who.api, 'agent', jobId);
  const outputs = async (jobId: string, who = alice) => ok(who.api.GET('/api/core/agent/jobs/{jobId}/results', job(jobId)));
  const annotations = async (jobId: string, who = alice) => ok(who.api.GET('/api/core/agent/jobs/{jobId}/annotations', job(jobId)));
  const conversation = (conversationId?: string) => ({ params: { query: { page: 0, pageSize: 10, conversationId } } });

  /** The answer's citations resolve to annotations of the job that quote the document at a line. */
  const expectCited = async (jobId: string, out: AgentJobOutputs, expected: RegExp) => {
    expect(out.referenceIds.length).toBeGreaterThan(0);
    const cited = await annotations(jobId);
    expect(cited.map((a) => a.id.id).sort()).toEqual([...out.referenceIds].sort());
    for (const a of cited) {
      expect(a).toMatchObject({
        type: 'DOCUMENT_STATEMENT',
        id: { entityType: 'ANNOTATION' },
        data: { type: 'DOCUMENT_STATEMENT', documentId: roberts },
      });
      expect(a.data.positions[0]).toMatchObject({ type: 'LINE', line_number: expect.any(Number) });
    }
    expect(cited.map((a) => a.data.content).join('\n')).toMatch(expected);
  };

  it('holds a stateful conversation of two turns: the second question is read with the first one in mind', async () => {
    const first = await create(alice, { message: 'When was Iwan Roberts born?', files: { fileIds: [roberts] } });
    expect(first).toMatchObject({ status: 'PENDING', taskType: 'AGENT', jobId: expect.stringMatching(UUID) });
    expect(await finished(first.jobId)).toMatchObject({ status: 'SUCCESS' });
    const one = await outputs(first.jobId);
    expect(one.answer).toMatch(/26 June 1968/);
    expect(one.explanation).toMatch(/without a language model/i);
    expect(one.conversationId).toMatch(UUID);
    await expectCited(first.jobId, one, /26 June 1968/);

    // "he" is Iwan Roberts: the turn is read with the conversation's earlier message; files carry over.
    const second = await create(alice, { message: 'Where was he born?', conversation_id: one.conversationId });
    expect(await finished(second.jobId)).toMatchObject({ status: 'SUCCESS' });
    const two = await outputs(second.jobId);
    expect(two.answer).toMatch(/Bangor/);
    expect(two.conversationId).toBe(one.conversationId);
    await expectCited(second.jobId, two, /Bangor/);

    const inputs = await ok(alice.api.GET('/api/core/agent/jobs/{jobId}/inputs', job(second.jobId)));
    expect(inputs).toMatchObject({
      message: 'Where was he born?',
      conversationId: one.conversationId,
      files: { fileIds: [roberts] },
      maxIterations: expect.any(Number),
    });

    // The conversation's jobs, newest first; other jobs of Alice are not in it.
    await create(alice, { message: 'A new conversation', files: { fileIds: [roberts] } });
    const page = await ok(alice.api.GET('/api/core/agent/jobs', conversation(one.conversationId)));
    expect(page.data.map((j) => j.jobId)).toEqual([second.jobId, first.jobId]);
    const all = await ok(alice.api.GET('/api/core/agent/jobs', conversation()));
    expect(all.data).toHaveLength(3);

    // The trace shows the tool calls, with arguments and results.
    const trace = await ok(alice.api.GET('/api/core/agent/jobs/{jobId}/trace', job(second.jobId)));
    expect(trace).toMatchObject({ jobId: second.jobId, engine: 'builtin' });
    const search = trace.steps.find((s) => s.tool === 'search_passages');
    expect(search).toMatchObject({ iteration: 1, attempt: 1 });
    expect(String(search?.arguments.query)).toMatch(/Iwan Roberts/);
    expect(JSON.stringify(search?.result)).toMatch(/Bangor/);

    // Bob (same namespace) and Carol (another) can neither continue nor read Alice's conversation.
    const theirs = await bob.call('POST', '/api/core/agent/jobs', {
      message: 'And then?',
      conversation_id: one.conversationId,
      files: { fileIds: [roberts] },
    });
    expect((await errorBody(theirs, 404, 'NOT_FOUND')).details).toEqual([{ field: 'conversation_id', problem: expect.any(String) }]);
    await errorBody(await carol.call('GET', `/api/core/agent/jobs/${second.jobId}`), 404, 'NOT_FOUND');
    await errorBody(await carol.call('GET', `/api/core/agent/jobs/${second.jobId}/trace`), 404, 'NOT_FOUND');
    expect((await ok(bob.api.GET('/api/core/agent/jobs', conversation(one.conversationId)))).data).toEqual([]);
  });

  it('carries the subject of a conversation about a paper: "And who funded it?" is read in the acknowledgements', async () => {
    const first = await create(alice, { message: 'What is the title of this paper?', files: { fileIds: [shinyama] } });
    expect(await finished(first.jobId)).toMatchObject({ status: 'SUCCESS' });
    const one = await outputs(first.jobId);
    expect(one.answer).toBe('Preemptive Information Extraction using Unrestricted Relation Discovery');
    const titleCited = await annotations(first.jobId);
    expect(titleCited).toHaveLength(1);
    expect(titleCited[0].data).toMatchObject({
      documentId: shinyama,
      content: expect.stringContaining('Preemptive Information Extraction'),
    });
    expect(titleCited[0].data.positions[0]).toMatchObject({ type: 'BBOX', page_number: 1 });

    const second = await create(alice, { message: 'And who funded it?', conversation_id: one.conversationId });
    expect(await finished(second.jobId)).toMatchObject({ status: 'SUCCESS' });
    const two = await outputs(second.jobId);
    expect(two.answer).toMatch(/National Science Foundation/);
    const cited = await annotations(second.jobId);
    expect(cited.map((a) => a.id.id).sort()).toEqual([...two.referenceIds].sort());
    expect(cited.map((a) => a.data.content).join(' ')).toMatch(/supported by the National Science Foundation/);
    expect(cited[0].data.positions[0]).toMatchObject({ type: 'BBOX', page_number: expect.any(Number) });
  });

  it('answers a stateless conversation; roles in any case', async () => {
    const created = await create(alice, {
      // The document lists the roles in lower case; the API takes them in any case, which is what this test is about.
      messages: [
        { role: 'SYSTEM', content: 'Answer briefly.' },
        { role: 'User', content: 'Who is Iwan Roberts?' },
        { role: 'assistant', content: 'A Welsh footballer.' },
        { role: 'USER', content: 'How many caps did Iwan Roberts win for Wales?' },
      ] as CreateAgentJobRequest['messages'],
      files: { fileIds: [roberts] },
    });
    expect(await finished(created.jobId)).toMatchObject({ status: 'SUCCESS' });
    const out = await outputs(created.jobId);
    expect(out.answer).toMatch(/^(15|fifteen)$/i);
    expect(out.conversationId).toBeUndefined();
    await expectCited(created.jobId, out, /(15|fifteen) caps/);
  });

  it('fills output_model_schema field by field with typed questions, valid against the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        full_name: { type: 'string', description: 'Full name' },
        place_of_birth: { type: 'string', description: 'Where was Iwan Roberts born?' },
        caps: { type: 'integer', description: 'How many caps did he win for Wales?' },
      },
      required: ['full_name', 'place_of_birth'],
      additionalProperties: false,
    };
    const created = await create(alice, { message: 'Summarise Iwan Roberts', files: { fileIds: [roberts] }, output_model_schema: schema });
    expect(await finished(created.jobId)).toMatchObject({ status: 'SUCCESS' });
    const out = await outputs(created.jobId);
    expect(out.answer).toMatchObject({
      full_name: expect.stringMatching(/Iwan Wyn Roberts/),
      place_of_birth: expect.stringMatching(/Bangor/),
    });
    const answer = out.answer as Record<string, unknown>;
    if ('caps' in answer) expect(answer.caps).toBe(15);
    expect(Object.keys(answer).every((k) => k in schema.properties)).toBe(true);
    expect(out.referenceIds.length).toBeGreaterThanOrEqual(2);

    // A schema no document can satisfy ends FAILED, naming the field and the rule.
    const impossible = await create(alice, {
      message: 'Summarise Iwan Roberts',
      files: { fileIds: [roberts] },
      output_model_schema: {
        type: 'object',
        properties: { salary_in_euros: { type: 'integer', description: 'His yearly salary in euros' } },
        required: ['salary_in_euros'],
      },
    });
    const failed = await finished(impossible.jobId);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toMatch(/salary_in_euros/);
  });

  it('returns the same job for the same Idempotency-Key and body, 409 for another body, and keeps keys per user', async () => {
    const body = { message: 'When was Iwan Roberts born?', files: { fileIds: [roberts] } };
    const first = await create(alice, body, 'birth-1');
    const again = await create(alice, { files: { fileIds: [roberts] }, message: 'When was Iwan Roberts born?' }, 'birth-1');
    expect(again.jobId).toBe(first.jobId);
    const [a, b] = await Promise.all([create(alice, body, 'race-1'), create(alice, body, 'race-1')]);
    expect(a.jobId).toBe(b.jobId);

    const conflict = await alice.call(
      'POST',
      '/api/core/agent/jobs',
      { ...body, message: 'Something else?' },
      { 'Idempotency-Key': 'birth-1' },
    );
    expect((await errorBody(conflict, 409, 'CONFLICT')).details).toEqual([
      { field: 'Idempotency-Key', problem: expect.stringContaining(first.jobId) },
    ]);

    const bobs = await create(bob, body, 'birth-1');
    expect(bobs.jobId).not.toBe(first.jobId);
    for (const key of ['x'.repeat(201), 'has space']) {
      const res = await alice.call('POST', '/api/core/agent/jobs', body, { 'Idempotency-Key': key });
      expect((await errorBody(res, 400, 'VALIDATION_FAILED')).details[0].field).toBe('Idempotency-Key');
    }
    await finished(first.jobId);
  });

  it('refuses bad requests with 400 naming the field, and files of another tenant', async () => {
    const fileIds = [roberts];
    const cases: Array<[unknown, string]> = [
      [{ message: 'a', messages: [{ role: 'user', content: 'b' }], files: { fileIds } }, 'messages'],
      [
        { messages: [{ role: 'user', content: 'b' }], conversation_id: '00000000-0000-4000-8000-000000000000', files: { fileIds } },
        'conversation_id',
      ],
      [{ files: { fileIds } }, 'message'],
      [{ message: null, messages: null, files: { fileIds } }, 'message'],
      [
        {
          messages: [
            { role: 'user', content: 'b' },
            { role: 'assistant', content: 'c' },
          ],
          files: { fileIds },
        },
        'messages[1].role',
      ],
      [{ messages: [{ role: 'robot', content: 'b' }], files: { fileIds } }, 'messages[0].role'],
      [{ message: 'a', files: { fileIds }, max_iterations: 0 }, 'max_iterations'],
      [{ message: 'a', files: { fileIds }, completion_config: { model: 'HUGE' } }, 'completion_config.model'],
      [{ message: 'a', files: { fileIds }, completion_config: { temperature: 3 } }, 'completion_config.temperature'],
      [
        { message: 'a', files: { fileIds }, output_model_schema: { type: 'object', properties: { a: { type: 'no-such-type' } } } },
        'output_model_schema',
      ],
      [{ message: 'a', files: { fileIds }, output_model_schema: 'not a schema' }, 'output_model_schema'],
      [{ message: 'a', files: { fileIds }, conversation_id: 'not-a-uuid' }, 'conversation_id'],
      [{ message: 'a\u0000b'.repeat(20_000), files: { fileIds } }, 'message'],
      [{ message: 'a', files: { fileIds: [carolsFile] } }, 'files.fileIds[0]'],
    ];
    for (const [body, field] of cases) {
      const res = await alice.call('POST', '/api/core/agent/jobs', body);
      const err = await errorBody(res, 400, 'VALIDATION_FAILED');
      expect({ body, fields: err.details.map((d) => d.field) }).toEqual({ body, fields: expect.arrayContaining([field]) });
    }
    const unknown = await alice.call('POST', '/api/core/agent/jobs', {
      message: 'a',
      conversation_id: '00000000-0000-4000-8000-000000000000',
      files: { fileIds },
    });
    expect((await errorBody(unknown, 404, 'NOT_FOUND')).details[0].field).toBe('conversation_id');
    await errorBody(await alice.call('GET', '/api/core/agent/jobs?page=0'), 400, 'VALIDATION_FAILED');
    expect((await errorBody(await alice.call('GET', '/api/core/agent/jobs/not-a-job'), 400, 'VALIDATION_FAILED')).details[0].field).toBe(
      'jobId',
    );
  });

  it('ends a cancelled job ABORTED with its reason', async () => {
    const created = await create(alice, { message: 'When was Iwan Roberts born?', files: { fileIds: [roberts] } });
    const cancelled = await ok(alice.api.POST('/api/core/agent/jobs/{jobId}/cancel', job(created.jobId)));
    const end = cancelled.status === 'ABORTED' ? cancelled : await finished(created.jobId);
    expect(['ABORTED', 'SUCCESS']).toContain(end.status);
    if (end.status === 'ABORTED') expect(end.errorMessage).toMatch(/Cancelled/);
  });
});

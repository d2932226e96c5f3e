import { TestStack } from '@docintel/testing';
import { errorBody, json } from './support/http';

/**
 * Hostile text and output schemas on the job routes: a lone surrogate anywhere in a body, a
 * pattern that cannot run in linear time, a schema that expands past the field limit. Each is a
 * 400 naming the field, and the services go on answering good requests.
 */

interface Entity {
  id: { id: string };
}
interface Job {
  jobId: string;
  status: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const LONE_SURROGATE = /^(property name )?must be valid Unicode text: it holds a lone surrogate \(\\ud800\) at character \d+$/;

describe('Hardening: hostile text and schemas on the job routes', () => {
  let stack: TestStack;
  let alice: string;
  let collectionId: string;

  // JSON.stringify writes a lone surrogate as the escape "\ud800", which the gateway parses back into one.
  const post = (path: string, body: unknown) =>
    stack.request(path, { method: 'POST', token: alice, body: JSON.stringify(body), headers: JSON_TYPE });

  beforeAll(async () => {
    stack = await TestStack.start({
      label: 'hardening-schemas',
      apps: ['storage-service', 'indexing-service', 'job-orchestrator', 'api-gateway'],
    });
    alice = await stack.token('acme', 'alice@acme.test');
    collectionId = (await json<Entity>(await post('/api/core/collections', { name: 'Empty' }), 201)).id.id;
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a lone surrogate in a QA question with 400 naming it, then creates the same job without it', async () => {
    const question = (text: string) => ({
      files: { collectionIds: [collectionId] },
      questions: [{ question: text, answerType: { dataType: 'STRING' } }],
    });
    const bad = await errorBody(await post('/api/core/qa/jobs', question('Who signed \ud800 it?')), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([{ field: 'questions[0].question', problem: expect.stringMatching(LONE_SURROGATE) }]);

    const key = await errorBody(
      await post('/api/core/agent/jobs', { messages: [{ role: 'user', content: 'x', ['\ud800']: 1 }] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(key.details).toEqual([{ field: 'messages[0]["\\ud800"]', problem: expect.stringMatching(LONE_SURROGATE) }]);

    const good = await post('/api/core/qa/jobs', question('Who signed it?'));
    expect(good.status).toBeLessThan(300);
  });

  it('answers an output schema pattern RE2 cannot run with 400 naming its path and the reason', async () => {
    const body = {
      messages: [{ role: 'user', content: 'Extract the code.' }],
      output_model_schema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } },
    };
    const bad = await errorBody(await post('/api/core/agent/jobs', body), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([
      { field: 'output_model_schema.properties.code.pattern', problem: expect.stringMatching(/linear time: .*backreferences/) },
    ]);
  });

  it('answers a schema whose recursive $ref expands past the limit with 400 naming the limit, and runs one that does not', async () => {
    const node = { type: 'object', properties: Object.fromEntries('abcdefghij'.split('').map((k) => [k, { $ref: '#/$defs/n' }])) };
    const recursive = { messages: [{ role: 'user', content: 'Fill it.' }], output_model_schema: { $ref: '#/$defs/n', $defs: { n: node } } };
    const bad = await errorBody(await post('/api/core/agent/jobs', recursive), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([
      { field: 'output_model_schema', problem: expect.stringMatching(/^expands to more than \d+ fields .*; at most 200 are accepted$/) },
    ]);

    // A catastrophic pattern is accepted: it runs on RE2, so the run ends and the service keeps answering.
    const schema = { type: 'object', properties: { name: { type: 'string' } }, propertyNames: { pattern: '^(a+|n+a*m*e*)+$' } };
    const created = await json<Job>(
      await post('/api/core/agent/jobs', { messages: [{ role: 'user', content: 'What is the name?' }], output_model_schema: schema }),
      200,
    );
    let job = created;
    for (let i = 0; i < 120 && !['SUCCESS', 'FAILED'].includes(job.status); i++) {
      await new Promise((r) => setTimeout(r, 500));
      job = await json<Job>(await stack.request(`/api/core/agent/jobs/${created.jobId}`, { token: alice }));
    }
    expect(['SUCCESS', 'FAILED']).toContain(job.status);
  });
});

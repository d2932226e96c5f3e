import { openAiReply, startOpenAiServer, TestStack, type RunningApp, type TestOpenAiServer } from '@docintel/testing';
import { answerType, jobEnded, ok } from './support/client';
import { eventually, Indexer } from './support/indexing';

/**
 * A job survives the job-orchestrator replica that works on it. Two replicas run the LLM engine
 * against a local server speaking the OpenAI chat-completions protocol; each replica names its own
 * model, so the request tells which replica holds the unit. That request never gets an answer; the
 * holder is then stopped (gracefully: it gives the unit back at once) or killed (its silence: no
 * heartbeat, no ack, and the sweeper and the queue hand the unit to the survivor). The survivor's
 * request is answered and the job ends SUCCESS with the answer and its citation.
 */

const CONTRACT = ['SERVICE AGREEMENT', '', 'The termination notice period is 90 days.', 'The fee is paid monthly.', ''].join('\n');

describe('a job survives the replica that answers it', () => {
  let stack: TestStack;
  let llm: TestOpenAiServer;
  let alice: Indexer;
  let fileId: string;
  const replicas: Array<{ key: string; model: string; app: RunningApp }> = [];

  const envFor = (model: string): Record<string, string> => ({
    ANSWERING_ENGINE: 'llm',
    LLM_BASE_URL: llm.baseUrl,
    LLM_API_KEY: 'sk-test',
    LLM_MODEL: model,
    LLM_TIMEOUT_MS: '120000',
    JOB_HEARTBEAT_SECONDS: '1',
    JOB_STALE_SECONDS: '4',
    JOB_SWEEP_INTERVAL_SECONDS: '1',
  });
  let models = 0;
  const startReplica = async () => {
    const model = `model-${++models}`;
    const app = await stack.startApp('job-orchestrator', envFor(model));
    const key = [...stack.apps].find(([, a]) => a === app)![0];
    replicas.push({ key, model, app });
  };

  beforeAll(async () => {
    llm = await startOpenAiServer();
    stack = await TestStack.start({ label: 'jobrecovery', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    await startReplica();
    await startReplica();
    alice = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    const file = await alice.index('recovery/contract.txt', { bytes: CONTRACT });
    fileId = file.id.id;
    const done = await alice.stepsSettled(fileId, ['passage_indexing'], 120_000);
    expect(done.lastIndexationInfos.status).toBe('SUCCESS');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  /** The model's reply: the passage that holds "90 days", cited by id with that quote. */
  const answerFromPassages = (prompt: string) => {
    const passage = /<passage id="([^"]+)"[^>]*>\n([^<]*)<\/passage>/g;
    for (const m of prompt.matchAll(passage)) {
      if (m[2].includes('90 days')) {
        return openAiReply.output({
          found: true,
          value: 90,
          explanation: 'The termination clause.',
          citations: [{ passageId: m[1], quote: '90 days' }],
        });
      }
    }
    return openAiReply.output({ found: false, value: null, explanation: 'Not in the passages.', citations: [] });
  };

  it.each([
    ['stopped gracefully (SIGTERM)', 'SIGTERM'],
    ['killed (SIGKILL)', 'SIGKILL'],
  ] as const)(
    '%s while it waits for the model: the other replica answers and the job ends SUCCESS',
    async (_label, signal) => {
      llm.reset();
      let holderModel: string | undefined;
      llm.script = (request) => {
        if (holderModel === undefined) {
          holderModel = request.body?.model;
          return { kind: 'hang' };
        }
        const user = request.body?.messages.find((m) => m.role === 'user')?.content;
        return answerFromPassages(typeof user === 'string' ? user : '');
      };

      const res = await alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [fileId] },
          questions: [
            { id: 'notice', question: 'How many days is the termination notice period?', answerType: answerType({ dataType: 'INT' }) },
          ],
        },
      });
      expect(res.response.status).toBe(200);
      const created = res.data!;

      await eventually(
        'a replica to ask the model',
        async () => holderModel,
        (m) => m !== undefined,
        30_000,
      );
      const holder = replicas.find((r) => r.model === holderModel)!;
      expect(holder).toBeDefined();
      await stack.stopApp(holder.key, signal);
      replicas.splice(replicas.indexOf(holder), 1);
      const survivor = replicas[0];

      const job = await jobEnded(alice.api, 'qa', created.jobId, 60_000);
      expect(job).toMatchObject({ status: 'SUCCESS' });
      // The survivor asked the model after the holder went away.
      expect(llm.requests.map((r) => r.body?.model)).toEqual([holder.model, survivor.model]);

      const jobPath = { params: { path: { jobId: created.jobId } } };
      const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', jobPath));
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ found: true, answer: { longValue: 90 } });
      const annotations = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/annotations', jobPath));
      expect(annotations).toHaveLength(1);
      expect(annotations[0].data.positions[0]).toMatchObject({ type: 'LINE', line_number: 3 });

      // A fresh replica takes the stopped one's place for the next case.
      await startReplica();
    },
    120_000,
  );
});

import { TestStack } from '@docintel/testing';
import { answerType, jobEnded, ok } from './support/client';
import { eventually, Indexer, type IndexedFile } from './support/indexing';

/**
 * "SUCCESS" means ready to be asked: a file says SUCCESS only once every step after parsing is
 * over (passages and their lexical index, vectors, formulas, ontologies), so a QA job started the
 * moment GET /files/{id} says SUCCESS gets the same answer as one started after everything has
 * settled. A larger document is indexed just before, so that the small one's batches queue behind
 * it, as they do on a busy service.
 */

const TERMINAL_STEP = ['SUCCESS', 'SKIPPED', 'FAILED'];
const QUESTION = 'In what year did Christopher Latham Sholes patent the typewriter?';

/** The stages of additionalInfos that report a status (parsing has none). */
const stages = (f: IndexedFile): Array<[string, string]> =>
  Object.entries(f.additionalInfos as Record<string, { status?: unknown } | undefined>)
    .filter(([, v]) => typeof v?.status === 'string')
    .map(([k, v]) => [k, v?.status as string]);

describe('a file that says SUCCESS can be asked', () => {
  let stack: TestStack;
  let alice: Indexer;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'readiness' });
    alice = await Indexer.forNamespace(stack, 'readiness', 'alice@readiness.test');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function ask(fileId: string): Promise<{ found: boolean; rawValue: string }> {
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: {
          files: { fileIds: [fileId] },
          questions: [{ id: 'year', question: QUESTION, answerType: answerType({ dataType: 'INT' }) }],
        },
      }),
    );
    expect((await jobEnded(alice.api, 'qa', created.jobId)).status).toBe('SUCCESS');
    const { results } = await ok(alice.api.GET('/api/core/qa/jobs/{jobId}/results', { params: { path: { jobId: created.jobId } } }));
    return { found: results[0].found, rawValue: results[0].rawValue };
  }

  it('answers at the first SUCCESS as it does once the pipeline has settled', async () => {
    const large = await alice.index('readiness/large.pdf', { corpus: 'pdf/papermage_2020.acl-main.447.pdf' });
    const file = await alice.index('readiness/multi_page.pdf', { corpus: 'pdf/docling_multi_page.pdf' });

    // The first answer of GET /files/{id} that is not PENDING or RUNNING.
    const first = await eventually(
      `file ${file.id.id} to end`,
      () => alice.get(file.id.id),
      (f) => !['PENDING', 'RUNNING'].includes(f.lastIndexationInfos.status),
      180_000,
    );
    expect(first.lastIndexationInfos).toEqual({ status: 'SUCCESS', errorMessage: null, errorTraceback: null });
    const atSuccess = stages(first);
    expect(atSuccess.map(([k]) => k).sort()).toEqual(['formula_augmentation', 'node_embedding', 'ontologies', 'passage_indexing']);
    expect(atSuccess.filter(([, status]) => !TERMINAL_STEP.includes(status))).toEqual([]);
    expect(first.additionalInfos.passage_indexing?.status).toBe('SUCCESS');
    expect(first.additionalInfos.node_embedding?.status).toBe('SUCCESS');

    const early = await ask(file.id.id);
    expect(early).toEqual({ found: true, rawValue: '1868' });

    // Everything settled (the larger file too, so no batch of anyone is left): the same answer.
    await alice.stepsSettled(large.id.id, ['node_embedding', 'passage_indexing', 'formula_augmentation', 'ontologies'], 300_000);
    const settled = await alice.get(file.id.id);
    expect(settled.additionalInfos.node_embedding?.updatedTime).toBe(first.additionalInfos.node_embedding?.updatedTime);
    expect(await ask(file.id.id)).toEqual(early);
  }, 420_000);

  it('a reindex without reparse is SUCCESS again only once its steps are all over', async () => {
    const file = await alice.index('readiness/notes.txt', { bytes: 'The launch code is 4711.\n\nA second paragraph.\n' });
    const done = await alice.settled(file.id.id, 120_000);
    expect(done.lastIndexationInfos.status).toBe('SUCCESS');
    expect(await alice.reindex(file.id.id)).toBe(202);
    // Until SUCCESS, a step of this run is not over yet; at SUCCESS all are.
    const again = await eventually(
      `reindex of ${file.id.id} to end`,
      () => alice.get(file.id.id),
      (f) =>
        f.additionalInfos.node_embedding?.requestedTime !== done.additionalInfos.node_embedding?.requestedTime &&
        !['PENDING', 'RUNNING'].includes(f.lastIndexationInfos.status),
      120_000,
    );
    expect(again.lastIndexationInfos.status).toBe('SUCCESS');
    expect(stages(again).filter(([, status]) => !TERMINAL_STEP.includes(status))).toEqual([]);
  }, 300_000);
});

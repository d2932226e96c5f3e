import { lastStepUpdate, readiness } from './readiness';

const run = { requestedTime: 1000, generation: 3 };
const step = (status: string, extra: Record<string, unknown> = {}) => ({
  status,
  requestedTime: 1000,
  generation: 3,
  updatedTime: 5,
  ...extra,
});
const allOver = () => ({
  parsing: { nodes: 12 },
  passage_indexing: step('SUCCESS'),
  node_embedding: step('SUCCESS'),
  formula_augmentation: step('SKIPPED'),
  ontologies: step('SUCCESS'),
});

describe('readiness', () => {
  it('is SUCCESS when every step of the run is over, skipped ones included', () => {
    expect(readiness(allOver(), run)).toEqual({ kind: 'SUCCESS' });
  });

  it('waits, naming the step, while one is PENDING or RUNNING', () => {
    expect(readiness({ ...allOver(), node_embedding: step('RUNNING') }, run)).toEqual({ kind: 'waiting', step: 'node_embedding' });
    expect(readiness({ ...allOver(), ontologies: step('PENDING') }, run)).toEqual({ kind: 'waiting', step: 'ontologies' });
  });

  it('waits while a step shows the record of another run, or none', () => {
    expect(readiness({ ...allOver(), passage_indexing: step('SUCCESS', { requestedTime: 999 }) }, run).kind).toBe('waiting');
    expect(readiness({ ...allOver(), node_embedding: step('SUCCESS', { generation: 2 }) }, run).kind).toBe('waiting');
    const { ontologies: _, ...withoutOntologies } = allOver();
    expect(readiness(withoutOntologies, run)).toEqual({ kind: 'waiting', step: 'ontologies' });
  });

  it('fails the file with the reason when passages could not be indexed', () => {
    const verdict = readiness({ ...allOver(), passage_indexing: step('FAILED', { lastError: 'disk full' }) }, run);
    expect(verdict).toEqual({ kind: 'FAILED', message: expect.stringContaining('disk full') });
  });

  it('keeps the file answerable when vectors, formulas or ontologies failed', () => {
    expect(readiness({ ...allOver(), node_embedding: step('FAILED', { lastError: 'embedder down' }) }, run)).toEqual({ kind: 'SUCCESS' });
    expect(readiness({ ...allOver(), ontologies: step('FAILED') }, run)).toEqual({ kind: 'SUCCESS' });
  });

  it('knows when a step last reported', () => {
    expect(lastStepUpdate({ ...allOver(), ontologies: step('PENDING', { updatedTime: 42 }) })).toBe(42);
    expect(lastStepUpdate({})).toBe(0);
  });
});

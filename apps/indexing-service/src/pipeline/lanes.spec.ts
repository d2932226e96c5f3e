import 'reflect-metadata';
import { IndexingEnv } from '../indexing.env';
import { fileLane, laneDurables, laneOf, parseLaneOf } from './lanes';

const env = Object.assign(new IndexingEnv(), { PIPELINE_LARGE_FILE_BATCHES: 10, PARSE_LARGE_FILE_BYTES: 1024 * 1024 });

describe('lanes', () => {
  it('sends a file of PIPELINE_LARGE_FILE_BATCHES batches or more to the large lane, in every step', () => {
    expect(laneOf({ batches: 9 }, env)).toBe('small');
    expect(laneOf({ batches: 10 }, env)).toBe('large');
    // Formula batches and ontologies follow the node batches the run was announced with.
    expect(fileLane({ passage_indexing: { status: 'RUNNING', batches: 56 } }, env)).toBe('large');
    expect(fileLane({ passage_indexing: { status: 'RUNNING', batches: 1 } }, env)).toBe('small');
    expect(fileLane({}, env)).toBe('small');
  });

  it('parses a request of PARSE_LARGE_FILE_BYTES or more in the large lane; one of unknown size in the small one', () => {
    expect(parseLaneOf({ size: 1024 * 1024 - 1 }, env)).toBe('small');
    expect(parseLaneOf({ size: 1024 * 1024 }, env)).toBe('large');
    expect(parseLaneOf({ size: null }, env)).toBe('small');
  });

  it('names the large lane of a step <step>_large', () => {
    expect(laneDurables('node_embedding')).toEqual(['node_embedding', 'node_embedding_large']);
  });
});

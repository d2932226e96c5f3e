import { DomainError } from '@docintel/contracts';
import { findSimilarInputs } from './find-similar-inputs';

describe('findSimilarInputs', () => {
  it('keeps the identifiers given and names each source that names nothing', () => {
    expect(findSimilarInputs({ sourceIdentifiers: [{ doi: ' 10.1/a ' }, { id: 'f', openAccessId: 'PMC1' }] }).sourceIdentifiers).toEqual([
      { doi: '10.1/a' },
      { id: 'f', openAccessId: 'PMC1' },
    ]);
    try {
      findSimilarInputs({ sourceIdentifiers: [{ doi: '10.1/a' }, {}, { doi: '  ' }] });
      throw new Error('expected a rejection');
    } catch (err) {
      expect((err as DomainError).details).toEqual([
        { field: 'sourceIdentifiers[1]', problem: 'must name the document by doi, id or openAccessId' },
        { field: 'sourceIdentifiers[2]', problem: 'must name the document by doi, id or openAccessId' },
      ]);
    }
  });
});

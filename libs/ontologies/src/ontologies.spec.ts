import { conceptId, DOCUMENT_METADATA_CONCEPT, toOntologies } from './ontologies';
import type { OntologyResult } from './types';

const result: OntologyResult = {
  title: 'A Study of Ducks',
  authors: ['Jane Smith'],
  doi: '10.1000/ducks.1',
  language: 'en',
  keyphrases: [
    {
      text: 'mallard ducks',
      score: 1,
      occurrences: 3,
      firstOffset: 12,
      explanation: 'TextRank keyphrase, score 1.00 (rank 1), 3 occurrences, first at offset 12',
    },
  ],
  entities: [
    {
      text: 'Jane Smith',
      type: 'PERSON',
      occurrences: 2,
      firstOffset: 20,
      explanation: 'named entity (person) recognised by compromise, 2 occurrences, first at offset 20',
    },
  ],
  explanations: {
    title: 'PDF metadata Title',
    authors: 'PDF metadata Author',
    doi: 'DOI pattern in text at offset 40',
    language: 'tinyld',
  },
};

describe('toOntologies', () => {
  it('lays out a metadata concept, then keyphrases, then entities', () => {
    const ontologies = toOntologies(result);
    expect(ontologies.map((o) => o.name)).toEqual([DOCUMENT_METADATA_CONCEPT, 'mallard ducks', 'Jane Smith']);
    expect(ontologies[0].metas).toEqual({
      title: { metaName: 'title', metaValue: 'A Study of Ducks', explanation: 'PDF metadata Title' },
      authors: { metaName: 'authors', metaValue: ['Jane Smith'], explanation: 'PDF metadata Author' },
      doi: { metaName: 'doi', metaValue: '10.1000/ducks.1', explanation: 'DOI pattern in text at offset 40' },
      language: { metaName: 'language', metaValue: 'en', explanation: 'tinyld' },
    });
    expect(ontologies[1].metas.score).toEqual({ metaName: 'score', metaValue: 1, explanation: result.keyphrases[0].explanation });
    expect(ontologies[1].metas.type.metaValue).toBe('KEYPHRASE');
    expect(ontologies[2].metas.type.metaValue).toBe('PERSON');
    expect(ontologies[2].metas.occurrences).toEqual({ metaName: 'occurrences', metaValue: 2, explanation: 'first at offset 20' });
  });

  it('gives concept ids as name-based UUIDs of entityType CONCEPT_NOTE, distinct per kind', () => {
    const [meta, keyphrase, person] = toOntologies(result);
    for (const o of [meta, keyphrase, person]) {
      expect(o.conceptId.entityType).toBe('CONCEPT_NOTE');
      expect(o.conceptId.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(keyphrase.conceptId).toEqual(conceptId('keyphrase', 'Mallard  Ducks'));
    expect(conceptId('keyphrase', 'Jane Smith')).not.toEqual(person.conceptId);
  });

  it('has no metadata concept when nothing was found', () => {
    expect(toOntologies({ keyphrases: [], entities: [], explanations: {} })).toEqual([]);
  });
});

import { looseKey } from './text';
import type { MetadataField, Ontology, OntologyMeta, OntologyResult } from './types';
import { CONCEPT_NAMESPACE, uuidV5 } from './uuid';

export const DOCUMENT_METADATA_CONCEPT = 'Document metadata';

/** Concept ids are name-based UUIDs: the same concept gets the same id in every file and every run. */
export function conceptId(kind: string, name: string): Ontology['conceptId'] {
  return { id: uuidV5(`${kind}:${looseKey(name)}`, CONCEPT_NAMESPACE), entityType: 'CONCEPT_NOTE' };
}

function meta(metaName: string, metaValue: unknown, explanation: string): OntologyMeta {
  return { metaName, metaValue, explanation };
}

const METADATA_FIELDS: MetadataField[] = ['title', 'authors', 'description', 'doi', 'publicationDate', 'language'];

/**
 * The API's ontology array: one "Document metadata" concept holding the bibliographic facts, then
 * one concept per keyphrase (best first), then one per named entity (most mentioned first).
 */
export function toOntologies(result: OntologyResult): Ontology[] {
  const ontologies: Ontology[] = [];
  const metas: Record<string, OntologyMeta> = {};
  for (const field of METADATA_FIELDS) {
    const value = result[field];
    if (value === undefined || (Array.isArray(value) && !value.length)) continue;
    metas[field] = meta(field, value, result.explanations[field] ?? '');
  }
  if (Object.keys(metas).length) {
    ontologies.push({ conceptId: conceptId('document', DOCUMENT_METADATA_CONCEPT), name: DOCUMENT_METADATA_CONCEPT, metas });
  }

  const seen = new Set<string>();
  const push = (o: Ontology) => {
    if (seen.has(o.conceptId.id)) return;
    seen.add(o.conceptId.id);
    ontologies.push(o);
  };
  for (const k of result.keyphrases) {
    push({
      conceptId: conceptId('keyphrase', k.text),
      name: k.text,
      metas: {
        type: meta('type', 'KEYPHRASE', 'keyphrase of the document'),
        score: meta('score', k.score, k.explanation),
        occurrences: meta('occurrences', k.occurrences, `first at offset ${k.firstOffset}`),
      },
    });
  }
  for (const e of result.entities) {
    push({
      conceptId: conceptId(`entity:${e.type}`, e.text),
      name: e.text,
      metas: {
        type: meta('type', e.type, e.explanation),
        occurrences: meta('occurrences', e.occurrences, `first at offset ${e.firstOffset}`),
      },
    });
  }
  return ontologies;
}

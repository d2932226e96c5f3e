import type { OntologyDto } from '@docintel/contracts';

/** Document metadata the indexing pipeline already found, by the names a meta may be given. */
const META_ALIASES: Record<string, string[]> = {
  title: ['title', 'document title', 'paper title', 'name of the document'],
  authors: ['author', 'authors', 'writer', 'writers', 'author names'],
  doi: ['doi', 'digital object identifier'],
  publicationDate: ['publication date', 'date of publication', 'published', 'publication year', 'date'],
  language: ['language', 'document language'],
};

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The value of a meta when the file's "Document metadata" ontology has it (title, authors, DOI,
 * publication date, language), as text, with the explanation the ontology engine gave; else null.
 */
export function ontologyAnswer(meta: string, ontologies: OntologyDto[]): { values: string[]; explanation: string } | null {
  const wanted = norm(meta);
  const key = Object.keys(META_ALIASES).find((k) => META_ALIASES[k].includes(wanted));
  if (!key) return null;
  const document = ontologies.find((o) => o.name === 'Document metadata');
  const found = document?.metas?.[key];
  if (!found || found.metaValue === null || found.metaValue === undefined) return null;
  const values = (Array.isArray(found.metaValue) ? found.metaValue : [found.metaValue]).map(String).filter((v) => v.trim());
  if (!values.length) return null;
  return { values, explanation: `From the document's metadata (${found.explanation ?? key}).` };
}

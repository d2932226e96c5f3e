import { toOntologies } from '@docintel/ontologies';
import type { OntologyDto } from '@docintel/contracts';
import type { BibliographicWork } from './bibliographic-source';

/**
 * A remote work's metadata in the shape files have theirs (libs/ontologies' toOntologies): one
 * "Document metadata" concept (title, authors, DOI, publication year, abstract) and one concept per
 * keyword, with the same concept ids a file's keyphrases get, so that clients read both alike.
 */
export function workOntologies(work: BibliographicWork, source: string): OntologyDto[] {
  const from = `from ${source} (${work.id})`;
  return toOntologies({
    title: work.title,
    authors: work.authors.length ? work.authors : undefined,
    doi: work.doi,
    publicationDate: work.year !== undefined ? String(work.year) : undefined,
    description: work.abstract,
    keyphrases: work.keywords.map((text, i) => ({
      text,
      score: Math.round((1 - i / Math.max(1, work.keywords.length)) * 1000) / 1000,
      occurrences: 1,
      firstOffset: 0,
      explanation: `keyword ${from}`,
    })),
    entities: [],
    explanations: { title: from, authors: from, doi: from, publicationDate: from, description: `abstract ${from}` },
  }) as OntologyDto[];
}

/** What the engine reads: plain data that a node tree (or any text source) turns into cheaply. */
export interface OntologyInput {
  /** The file's name, e.g. `reports/annual-2021.pdf`; the last resort for the title. */
  fileName: string;
  mediaType: string;
  /**
   * The document as plain text in reading order. Blocks (headings, paragraphs, list items, table
   * rows) are separated by a blank line, which is how paragraphs are told apart.
   */
  text: string;
  /** Headings in reading order; `level` 1 is the top. `page` (1-based) when the format has pages. */
  headings: HeadingInput[];
  /** The text of the first page, for paginated formats (PDF, OCR'd images). */
  firstPageText?: string;
  /** What the file itself declares (PDF info dictionary, Office core properties, HTML meta). */
  embeddedMetadata?: EmbeddedMetadata;
}

export interface HeadingInput {
  level: number;
  text: string;
  page?: number;
}

export interface EmbeddedMetadata {
  title?: string;
  authors?: string[];
  /** ISO 8601, a PDF date (`D:20210312120000+01'00'`) or a Date. */
  creationDate?: string | Date;
  subject?: string;
  keywords?: string;
  /** Language the document declares (BCP 47, e.g. `en-US`); used when the text is too short to detect. */
  language?: string;
}

/** A value and where it was found. */
export interface Found<T> {
  value: T;
  explanation: string;
}

/** A keyphrase ranked by TextRank. */
export interface Keyphrase {
  text: string;
  /** 0..1, the best keyphrase of the document has 1. */
  score: number;
  occurrences: number;
  /** Character offset of the first occurrence in the input text. */
  firstOffset: number;
  explanation: string;
}

export const ENTITY_TYPES = ['PERSON', 'ORGANIZATION', 'PLACE'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface NamedEntity {
  text: string;
  type: EntityType;
  occurrences: number;
  firstOffset: number;
  explanation: string;
}

export type MetadataField = 'title' | 'authors' | 'description' | 'doi' | 'publicationDate' | 'language';

export interface OntologyResult {
  title?: string;
  authors?: string[];
  description?: string;
  /** Lower case, e.g. `10.1145/1542476.1542528`. */
  doi?: string;
  /** ISO 8601 at the precision found: `2021-03-12`, `2021-03` or `2021`. */
  publicationDate?: string;
  /** ISO 639-1, e.g. `en`. */
  language?: string;
  keyphrases: Keyphrase[];
  entities: NamedEntity[];
  /** Where each metadata value came from, in words a user understands. */
  explanations: Partial<Record<MetadataField, string>>;
}

export interface OntologyOptions {
  /** Characters of text analysed at all (regexes, description, language). */
  maxTextChars?: number;
  /** Characters given to the NLP tagger (keyphrases, entities), the costly part. */
  maxNlpChars?: number;
  maxKeyphrases?: number;
  maxEntities?: number;
}

export const DEFAULT_OPTIONS: Required<OntologyOptions> = {
  maxTextChars: 200_000,
  maxNlpChars: 50_000,
  maxKeyphrases: 15,
  maxEntities: 25,
};

/** The API's Ontology entry (structurally the OntologyDto of the contracts). */
export interface OntologyMeta {
  metaName: string;
  metaValue: unknown;
  explanation?: string;
}

export interface Ontology {
  conceptId: { id: string; entityType: 'CONCEPT_NOTE' };
  name: string;
  metas: Record<string, OntologyMeta>;
}

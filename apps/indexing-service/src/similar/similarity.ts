import type { OntologyDto, SimilaritySignalsDto } from '@docintel/contracts';

/**
 * What "similar" means for find-similar: a document is compared with another by four signals,
 * each from 0 to 1, combined as a weighted mean over the signals both documents have.
 *
 * - embedding: cosine similarity of the documents' mean node vectors (the vectors node_embedding
 *   wrote, averaged per file and normalised), clamped at 0;
 * - title: Dice overlap of the title words (lower case, accents and stop words removed);
 * - authors: Dice overlap of the authors, each as "surname initial";
 * - keyphrases: Dice overlap of the keyphrases (lower case, a plural "s" dropped).
 *
 * A signal one side lacks (a file whose embedding was skipped, a document without authors) is left
 * out of the mean rather than counted as 0, so a missing fact neither helps nor hurts.
 */
export const SIGNAL_WEIGHTS = { embedding: 0.55, keyphrases: 0.2, title: 0.15, authors: 0.1 } as const;

/** The facts of a document that similarity is computed from. */
export interface DocumentProfile {
  /** The normalised mean of the document's node vectors, or null when it has none. */
  vector: Float32Array | null;
  titleWords: Set<string>;
  authors: Set<string>;
  keyphrases: Set<string>;
}

export interface Similarity {
  score: number;
  signals: SimilaritySignalsDto;
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by for from has have in into is it its of on or our that the their this to was were with without ' +
    'via using based towards toward new study analysis approach paper'
  ).split(' '),
);

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** The content words of a title: at least 3 characters, no stop words. */
export function titleWords(title: string | undefined | null): Set<string> {
  if (!title) return new Set();
  const words = fold(title).match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w)));
}

/** "Gernot Wolf", "Wolf, Gernot", "G. Wolf" -> "wolf g": surname and first initial, so that spellings of one name meet. */
export function authorKey(name: string): string | null {
  const folded = fold(name)
    .replace(/[^\p{L}\s,'-]/gu, ' ')
    .trim();
  if (!folded) return null;
  let given: string;
  let surname: string;
  if (folded.includes(',')) {
    const [last, first] = folded.split(',', 2);
    surname = last.trim();
    given = (first ?? '').trim();
  } else {
    const parts = folded.split(/\s+/);
    surname = parts[parts.length - 1];
    given = parts.slice(0, -1).join(' ');
  }
  surname = surname.split(/\s+/).pop() ?? '';
  if (!surname) return null;
  return given ? `${surname} ${given[0]}` : surname;
}

export function authorKeys(names: Iterable<string>): Set<string> {
  const keys = new Set<string>();
  for (const name of names) {
    const key = authorKey(name);
    if (key) keys.add(key);
  }
  return keys;
}

export function keyphraseKey(phrase: string): string {
  return fold(phrase)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ');
}

export function keyphraseKeys(phrases: Iterable<string>): Set<string> {
  const keys = new Set<string>();
  for (const p of phrases) {
    const key = keyphraseKey(p);
    if (key) keys.add(key);
  }
  return keys;
}

/** 2|A∩B| / (|A|+|B|); null when either set is empty (the signal is unknown). */
export function dice(a: Set<string>, b: Set<string>): number | null {
  if (!a.size || !b.size) return null;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** Cosine of two normalised vectors, clamped to 0..1; null when either is missing or their lengths differ. */
export function cosine(a: Float32Array | null, b: Float32Array | null): number | null {
  if (!a || !b || a.length !== b.length) return null;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return Math.max(0, Math.min(1, s));
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The combined score and its parts; the score is 0 when the documents share no signal at all. */
export function similarity(a: DocumentProfile, b: DocumentProfile): Similarity {
  const parts = {
    embedding: cosine(a.vector, b.vector),
    keyphrases: dice(a.keyphrases, b.keyphrases),
    title: dice(a.titleWords, b.titleWords),
    authors: dice(a.authors, b.authors),
  };
  let sum = 0;
  let weights = 0;
  for (const [signal, value] of Object.entries(parts) as Array<[keyof typeof SIGNAL_WEIGHTS, number | null]>) {
    if (value === null) continue;
    sum += SIGNAL_WEIGHTS[signal] * value;
    weights += SIGNAL_WEIGHTS[signal];
  }
  const signals: SimilaritySignalsDto = {
    title: round(parts.title ?? 0),
    authors: round(parts.authors ?? 0),
    keyphrases: round(parts.keyphrases ?? 0),
  };
  if (parts.embedding !== null) signals.embedding = round(parts.embedding);
  return { score: weights ? round(sum / weights) : 0, signals };
}

/** The candidates scoring at least minScore, best first (ties by the given order), at most limit. */
export function rank<T>(
  source: DocumentProfile,
  candidates: Array<{ item: T; profile: DocumentProfile }>,
  limit: number,
  minScore: number,
) {
  return candidates
    .map((c, order) => ({ item: c.item, order, ...similarity(source, c.profile) }))
    .filter((c) => c.score >= minScore && c.score > 0)
    .sort((x, y) => y.score - x.score || x.order - y.order)
    .slice(0, limit)
    .map(({ item, score, signals }) => ({ item, score, signals }));
}

/** What similarity reads from a file's ontologies: the "Document metadata" concept (title, authors, doi) and the keyphrase concepts. */
export interface OntologyFacts {
  title?: string;
  authors: string[];
  doi?: string;
  keyphrases: string[];
}

const DOCUMENT_METADATA = 'Document metadata';

export function factsOf(ontologies: OntologyDto[]): OntologyFacts {
  const facts: OntologyFacts = { authors: [], keyphrases: [] };
  for (const o of ontologies) {
    const metas = o.metas ?? {};
    if (o.name === DOCUMENT_METADATA) {
      const title = metas.title?.metaValue;
      const authors = metas.authors?.metaValue;
      const doi = metas.doi?.metaValue;
      if (typeof title === 'string') facts.title = title;
      if (Array.isArray(authors)) facts.authors = authors.filter((a): a is string => typeof a === 'string');
      else if (typeof authors === 'string') facts.authors = authors.split(/\s*[;,]\s*/);
      if (typeof doi === 'string') facts.doi = doi;
    } else if (metas.type?.metaValue === 'KEYPHRASE') {
      facts.keyphrases.push(o.name);
    }
  }
  return facts;
}

export function profileOf(facts: OntologyFacts, vector: Float32Array | null, fallbackTitle?: string): DocumentProfile {
  return {
    vector,
    titleWords: titleWords(facts.title ?? fallbackTitle),
    authors: authorKeys(facts.authors),
    keyphrases: keyphraseKeys(facts.keyphrases),
  };
}

/** The ontologies shown with a match: the metadata concept and the first keyphrases, `max` in all. */
export function shownOntologies(ontologies: OntologyDto[], max: number): OntologyDto[] {
  const metadata = ontologies.filter((o) => o.name === DOCUMENT_METADATA);
  const keyphrases = ontologies.filter((o) => o.metas?.type?.metaValue === 'KEYPHRASE');
  return [...metadata, ...keyphrases].slice(0, max);
}

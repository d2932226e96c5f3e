import type { OntologyDto } from '@docintel/contracts';
import { findDates } from '../typed';
import { bibliographicQuestion, type BibliographicField } from './question-cues';

/** The name of the ontology concept that holds a file's bibliographic facts. */
export const DOCUMENT_METADATA = 'Document metadata';

/** A field's values in a file's "Document metadata" ontology (authors: one each), as text; empty when it has none. */
export function metadataValues(ontologies: OntologyDto[], field: BibliographicField): string[] {
  const meta = ontologies.find((o) => o.name === DOCUMENT_METADATA)?.metas?.[field];
  if (!meta || meta.metaValue === null || meta.metaValue === undefined) return [];
  const values = Array.isArray(meta.metaValue) ? meta.metaValue : [meta.metaValue];
  return [...new Set(values.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => String(v).trim()))].filter(Boolean);
}

/** How the metadata engine explained a field ("first heading of the document", "PDF Info /Author"). */
export function metadataExplanation(ontologies: OntologyDto[], field: BibliographicField): string | undefined {
  return ontologies.find((o) => o.name === DOCUMENT_METADATA)?.metas?.[field]?.explanation || undefined;
}

export interface ValueSpan {
  start: number;
  end: number;
}

/**
 * Where a metadata value is written in a passage's text, or undefined. Text is compared without
 * regard to case, runs of white space or hyphenation at a line end ("Informa-\ntion"), so a title
 * broken over lines is found; a date is found as any written date of the same day (or month, or
 * year, at the precision the metadata has: "2006-04" is "April 2006").
 */
export function locateValue(value: string, field: BibliographicField, text: string): ValueSpan | undefined {
  return field === 'publicationDate' ? locateDate(value, text) : locateText(value, text);
}

function locateText(value: string, text: string): ValueSpan | undefined {
  const words = value.split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (!words.length) return undefined;
  // Between words: any white space; inside them nothing else, so "Sekine" does not match "Sekinel".
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s\\u00a0]+')}(?![\\p{L}\\p{N}])`, 'iu');
  const direct = re.exec(text);
  if (direct) return { start: direct.index, end: direct.index + direct[0].length };
  const joined = dehyphenated(text);
  const m = re.exec(joined.text);
  return m ? { start: joined.map[m.index], end: joined.map[m.index + m[0].length - 1] + 1 } : undefined;
}

/** The text with "-\n" joins removed, and for each of its characters the offset in the original. */
function dehyphenated(text: string): { text: string; map: number[] } {
  let out = '';
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const joined = /^-\r?\n/.exec(text.slice(i, i + 3));
    if (joined && /\p{L}/u.test(text[i - 1] ?? '')) {
      i += joined[0].length - 1;
      continue;
    }
    out += text[i];
    map.push(i);
  }
  return { text: out, map };
}

const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/;

function locateDate(value: string, text: string): ValueSpan | undefined {
  const iso = ISO.exec(value);
  if (!iso) return locateText(value, text);
  const [y, m, d] = [+iso[1], iso[2] ? +iso[2] : undefined, iso[3] ? +iso[3] : undefined];
  const rank: Record<string, number> = { year: 0, quarter: 0.5, month: 1, day: 2 };
  const wanted = d !== undefined ? 2 : m !== undefined ? 1 : 0;
  for (const date of findDates(text)) {
    if (date.year !== y) continue;
    if (wanted >= 1 && date.month !== m) continue;
    if (wanted === 2 && date.day !== d) continue;
    // The text must say at least as much as the metadata: "2006" does not place "2006-04-14".
    if ((rank[date.precision] ?? 0) < wanted) continue;
    return { start: date.start, end: date.end };
  }
  return undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A passage a metadata value may be written in; `nodeType` ranks a heading before a paragraph quoting it. */
export interface LocatablePassage {
  id: string;
  text: string;
  nodeType?: string;
}

/** One value of a field with the passage and span it is written at. */
export interface LocatedValue<P extends LocatablePassage> {
  value: string;
  passage: P;
  span: ValueSpan;
}

/** The file a field is read from, with the ontologies indexing found in it. */
export interface MetadataSource {
  fileId: string;
  fileName: string;
  ontologies: OntologyDto[];
}

export interface MetadataAnswer<P extends LocatablePassage> {
  field: BibliographicField;
  fileId: string;
  fileName: string;
  /** The values written in the document, in the metadata's order; those not found in it are left out. */
  located: Array<LocatedValue<P>>;
  /** Values the metadata has but the document does not show (so they are not answered). */
  unlocated: string[];
  explanation: string;
}

/** Passages of one file that may hold a value, best first (the caller's retrieval). */
export type ValueSearch<P extends LocatablePassage> = (query: string, fileId: string) => Promise<P[]>;

/**
 * The bibliographic field a question asks of the documents, and the files it asks it of: with one
 * file, any question about "this paper", "it", "the agreement"; among several, only the files the
 * question names by their title ("Who wrote <title>?"), since "Who are the authors?" over a
 * collection names no document. Undefined when the question is no such question.
 */
export function bibliographicTarget(
  question: string,
  sources: MetadataSource[],
): { field: BibliographicField; sources: MetadataSource[] } | undefined {
  if (!sources.length) return undefined;
  const asked = sources.map((s) => ({ s, q: bibliographicQuestion(question, metadataValues(s.ontologies, 'title')[0]) }));
  if (sources.length === 1) return asked[0].q ? { field: asked[0].q.field, sources } : undefined;
  const named = asked.filter((a) => a.q?.byTitle);
  return named.length ? { field: named[0].q!.field, sources: named.map((a) => a.s) } : undefined;
}

/**
 * A bibliographic question answered from the document's metadata, each value cited where the
 * document writes it: the first file (of those bibliographicTarget picks) whose metadata has the
 * field and whose text shows at least one of its values. A value the document does not show is
 * not answered (metadata from a PDF's Info dictionary can be stale or wrong); when none is shown,
 * or the question is not bibliographic, the result is undefined and the caller reads the
 * documents as for any question.
 */
export async function answerFromMetadata<P extends LocatablePassage>(
  question: string,
  candidates: MetadataSource[],
  search: ValueSearch<P>,
): Promise<MetadataAnswer<P> | undefined> {
  const target = bibliographicTarget(question, candidates);
  if (!target) return undefined;
  const { field } = target;
  for (const source of target.sources) {
    const values = metadataValues(source.ontologies, field);
    if (!values.length) continue;
    const located: Array<LocatedValue<P>> = [];
    const unlocated: string[] = [];
    // Each value (an author of several) is searched for at once; the answer keeps their order.
    const found = await Promise.all(values.map((value) => search(searchQuery(value, field), source.fileId)));
    values.forEach((value, i) => {
      const at = bestPlace(value, field, found[i]);
      if (at) located.push(at);
      else unlocated.push(value);
    });
    if (!located.length) continue;
    const how = metadataExplanation(source.ontologies, field);
    return {
      field,
      fileId: source.fileId,
      fileName: source.fileName,
      located,
      unlocated,
      explanation:
        `From the document metadata of ${source.fileName}${how ? ` (${how})` : ''}, cited where the document writes it.` +
        (unlocated.length ? ` Not answered because the document does not show them: ${unlocated.join('; ')}.` : ''),
    };
  }
  return undefined;
}

/** What to search for to find a value's node: the value itself; a date by its year, since "2006-04-14" is rarely written so. */
function searchQuery(value: string, field: BibliographicField): string {
  const year = field === 'publicationDate' ? ISO.exec(value)?.[1] : undefined;
  return (year ?? value).slice(0, 2000);
}

/** The passage that writes the value: a heading first, then the node where the value is most of the text. */
function bestPlace<P extends LocatablePassage>(value: string, field: BibliographicField, passages: P[]): LocatedValue<P> | undefined {
  let best: { at: LocatedValue<P>; rank: number } | undefined;
  passages.forEach((passage, order) => {
    const span = locateValue(value, field, passage.text);
    if (!span) return;
    const heading = passage.nodeType === 'heading' || passage.nodeType === 'title' ? 0 : 1;
    const share = (span.end - span.start) / Math.max(1, passage.text.length);
    const rank = heading * 10 + (1 - share) * 5 + order / 100;
    if (!best || rank < best.rank) best = { at: { value, passage, span }, rank };
  });
  return best?.at;
}

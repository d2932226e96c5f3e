import { embeddedMetadataLabel } from './metadata-source';
import type { Found, OntologyInput } from './types';

// Crossref's pattern for modern DOIs (10.<registrant>/<suffix>), unanchored.
const DOI = /\b10\.\d{4,9}\/[-._;()/:\p{L}\p{N}]+/giu;

// Where the bibliography starts, DOIs belong to cited works rather than to this document.
const REFERENCES_HEADING =
  /^[ \t]*(\d+(\.\d*)?\s*)?(references|bibliography|works cited|literature cited|citations|notes|sources|further reading|literatur|références)[ \t]*:?[ \t]*$/im;
/** A document states its own DOI on its first page (or in its front matter): further down, DOIs are citations. */
const OWN_DOI_WINDOW = 10_000;

/** Lower case, without the trailing punctuation of the sentence around it or an unbalanced ')'. */
export function normaliseDoi(raw: string): string {
  let doi = raw.toLowerCase();
  for (;;) {
    const trimmed = doi.replace(/[.,;:'"\]>}]+$/, '');
    const unbalanced = trimmed.endsWith(')') && (trimmed.match(/\(/g)?.length ?? 0) < (trimmed.match(/\)/g)?.length ?? 0);
    const next = unbalanced ? trimmed.slice(0, -1) : trimmed;
    if (next === doi) return doi;
    doi = next;
  }
}

/** All DOIs in the text with their offsets, in order. */
export function findDois(text: string): Array<{ doi: string; offset: number }> {
  const found: Array<{ doi: string; offset: number }> = [];
  for (const m of text.matchAll(DOI)) {
    const doi = normaliseDoi(m[0]);
    // 10.13039 is the Crossref Funder Registry: those identify funders, not documents.
    if (/\/./.test(doi) && !doi.startsWith('10.13039/')) found.push({ doi, offset: m.index ?? 0 });
  }
  return found;
}

/**
 * The document's own DOI: one declared in the embedded subject or keywords, else the first DOI of
 * the text's first 10,000 characters (or first page) before its references section.
 */
export function findDoi(input: OntologyInput, text: string): Found<string> | undefined {
  const meta = input.embeddedMetadata;
  for (const [field, value] of [
    ['Subject', meta?.subject],
    ['Keywords', meta?.keywords],
  ] as const) {
    const first = value ? findDois(value)[0] : undefined;
    if (first) return { value: first.doi, explanation: `${embeddedMetadataLabel(input.mediaType)} ${field}` };
  }
  const refs = REFERENCES_HEADING.exec(text);
  const window = Math.max(OWN_DOI_WINDOW, input.firstPageText?.length ?? 0);
  const body = text.slice(0, Math.min(refs ? refs.index : text.length, window));
  const first = findDois(body)[0];
  return first ? { value: first.doi, explanation: `DOI pattern in text at offset ${first.offset}` } : undefined;
}

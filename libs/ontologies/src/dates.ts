import { embeddedMetadataLabel } from './metadata-source';
import type { Found, OntologyInput } from './types';

/** Dates outside this range are taken for placeholders or typos. Fixed so that results never depend on the clock. */
const MIN_YEAR = 1900;
const MAX_YEAR = 2100;
/** How far from the top of the text a date still counts as the document's. */
const TOP_CHARS = 3000;

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO 8601 at the given precision, or undefined for an impossible date. */
export function isoDate(year: number, month?: number, day?: number): string | undefined {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) return undefined;
  if (month === undefined) return String(year);
  if (month < 1 || month > 12) return undefined;
  if (day === undefined) return `${year}-${pad(month)}`;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

interface DatePattern {
  re: RegExp;
  parse: (m: RegExpExecArray) => string | undefined;
}

// Unambiguous shapes only: "03/04/2021" could be March or April, so slashed day-month dates are left out.
const DATE_PATTERNS: DatePattern[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, parse: (m) => isoDate(+m[1], +m[2], +m[3]) },
  { re: /\b(\d{4})\/(\d{1,2})\/(\d{1,2})\b/g, parse: (m) => isoDate(+m[1], +m[2], +m[3]) },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'),
    parse: (m) => isoDate(+m[3], MONTHS[m[2].toLowerCase()], +m[1]),
  },
  {
    re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    parse: (m) => isoDate(+m[3], MONTHS[m[1].toLowerCase()], +m[2]),
  },
  { re: new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'), parse: (m) => isoDate(+m[2], MONTHS[m[1].toLowerCase()]) },
];

export interface DateMatch {
  iso: string;
  offset: number;
  length: number;
}

/** Every date of a supported shape, in text order; where shapes overlap the longest wins. */
export function findDates(text: string): DateMatch[] {
  // Impossible dates are kept until overlaps are resolved, so that "31 February 2021" does not
  // come back as "February 2021".
  const matches: Array<{ iso: string | undefined; offset: number; length: number }> = [];
  for (const { re, parse } of DATE_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) matches.push({ iso: parse(m), offset: m.index, length: m[0].length });
  }
  matches.sort((a, b) => a.offset - b.offset || b.length - a.length);
  const kept: typeof matches = [];
  for (const m of matches) {
    const last = kept[kept.length - 1];
    if (last && m.offset < last.offset + last.length) continue;
    kept.push(m);
  }
  return kept.filter((m): m is DateMatch => m.iso !== undefined);
}

/** An embedded date: ISO 8601, a PDF date (D:YYYYMMDDHHmmSS...) or a Date. */
export function parseEmbeddedDate(value: string | Date): string | undefined {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? undefined : isoDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  }
  const trimmed = value.trim();
  // PDF dates: "D:" then YYYY[MM[DD[HHmmSS]]], the prefix being optional in practice.
  const pdf = /^(?:D:(\d{4})(\d{2})?(\d{2})?|(\d{4})(\d{2})(\d{2})(?:\d{2,6})?(?:[Z+'-]|$))/.exec(trimmed);
  if (pdf) {
    const [year, month, day] = pdf[1] ? [pdf[1], pdf[2], pdf[3]] : [pdf[4], pdf[5], pdf[6]];
    return isoDate(+year, month ? +month : undefined, day ? +day : undefined);
  }
  return findDates(value)[0]?.iso;
}

const LABEL =
  /\b(published(?:\s+online)?|publication\s+date|date\s+of\s+publication|date\s+published|issued|released|issue\s+date|date)\s*(?:on\s*)?[:\-–]?\s*$/i;
// Dates of the review process are not the publication date.
const NOT_PUBLICATION = /\b(received|accepted|revised|submitted|reviewed|copyright|©)\b[^.\n]{0,25}$/i;

/**
 * Publication date: a labelled date near the top ("Published: 12 March 2021"), else the embedded
 * creation date, else the first date near the top that is not a review-process date.
 */
export function findPublicationDate(input: OntologyInput, text: string): Found<string> | undefined {
  const top = text.slice(0, TOP_CHARS);
  const dates = findDates(top);
  for (const d of dates) {
    const label = LABEL.exec(top.slice(Math.max(0, d.offset - 40), d.offset));
    if (label) return { value: d.iso, explanation: `date labelled "${label[1]}" in text at offset ${d.offset}` };
  }
  const created = input.embeddedMetadata?.creationDate;
  const embedded = created ? parseEmbeddedDate(created) : undefined;
  if (embedded) return { value: embedded, explanation: `${embeddedMetadataLabel(input.mediaType)} CreationDate` };
  const first = dates.find((d) => !NOT_PUBLICATION.test(top.slice(Math.max(0, d.offset - 40), d.offset)));
  return first ? { value: first.iso, explanation: `first date near the top of the text, at offset ${first.offset}` } : undefined;
}

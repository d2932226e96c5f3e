import type { DateFormat } from '@docintel/contracts';
import type { TextSpan } from './text';

/** How much of a date the text gave: "1 March 2024" a day, "March 2024" a month, "Q1 2024" a quarter, "2024" a year. */
export type DatePrecision = 'day' | 'month' | 'quarter' | 'year';

export interface DateMention extends TextSpan {
  year: number;
  /** 1..12; the first month of the period when the text gave less than a day. */
  month: number;
  /** 1..31; 1 when the text gave less than a day. */
  day: number;
  precision: DatePrecision;
  /** The numeric day and month could be read either way and the rule that chose was a default. */
  ambiguous?: boolean;
}

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};
const MONTH =
  '(?:' +
  Object.keys(MONTHS)
    .sort((a, b) => b.length - a.length)
    .join('|') +
  ')\\.?';
const DAY = '(?:[0-3]?\\d)(?:st|nd|rd|th)?';
const YEAR = "(?:\\d{4}|'\\d{2})";

// Tried in this order at each position; the first that matches wins, so longer forms come first.
// A pattern marked `whole` claims its text even when the date is impossible, so that 2023-02-29
// is no date at all rather than the year 2023.
const PATTERNS: {
  re: RegExp;
  whole?: boolean;
  read: (m: RegExpExecArray, format?: DateFormat) => Omit<DateMention, keyof TextSpan> | null;
}[] = [
  {
    whole: true,
    // 2024-03-01, 2024/03/01, 2024-03-01T10:00:00Z
    re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/y,
    read: (m) => day(+m[1], +m[2], +m[3]),
  },
  {
    // 1 March 2024, 1st of March, 2024, 01-Mar-2024
    re: new RegExp(`\\b(${DAY})(?:\\s+of)?[\\s-]+(${MONTH})[\\s,-]+(${YEAR})\\b`, 'iy'),
    read: (m) => day(year(m[3]), month(m[2]), parseInt(m[1], 10)),
  },
  {
    // March 1, 2024, March 1st 2024, Mar. 1 2024
    re: new RegExp(`\\b(${MONTH})\\s+(${DAY}),?\\s+(${YEAR})\\b`, 'iy'),
    read: (m) => day(year(m[3]), month(m[1]), parseInt(m[2], 10)),
  },
  {
    whole: true,
    // 01.03.2024, 03/01/2024, 1-3-24
    re: /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})\b/y,
    read: (m, format) => numericDay(+m[1], +m[3], year(m[4]), m[2], format),
  },
  {
    // Q1 2024, Q1/2024, 1Q24
    re: /\b(?:Q([1-4])[\s/-]*(\d{4}|'?\d{2})|([1-4])Q[\s/-]*(\d{4}|'?\d{2}))\b/iy,
    read: (m) => ({ year: year(m[2] ?? m[4]), month: (+(m[1] ?? m[3]) - 1) * 3 + 1, day: 1, precision: 'quarter' }),
  },
  {
    // March 2024, Mar 2024, March of 2024
    re: new RegExp(`\\b(${MONTH})(?:\\s+of)?[\\s,]+(\\d{4})\\b`, 'iy'),
    read: (m) => ({ year: +m[2], month: month(m[1]), day: 1, precision: 'month' }),
  },
  {
    // 2024 alone: a year between 1000 and 2199, not part of a longer number
    re: /\b(1\d{3}|2[01]\d{2})\b(?![.,]\d)/y,
    read: (m) => ({ year: +m[1], month: 1, day: 1, precision: 'year' }),
  },
];

const month = (name: string) => MONTHS[name.toLowerCase().replace('.', '')];
/** Two-digit years: 00–49 are 2000–2049, 50–99 are 1950–1999. */
function year(text: string): number {
  const digits = text.replace("'", '');
  const n = +digits;
  if (digits.length > 2) return n;
  return n < 50 ? 2000 + n : 1900 + n;
}

function valid(y: number, m: number, d: number): boolean {
  if (!(m >= 1 && m <= 12 && d >= 1)) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function day(y: number, m: number, d: number) {
  return valid(y, m, d) ? { year: y, month: m, day: d, precision: 'day' as const } : null;
}

/**
 * a/b/y with a and b both ≤ 12 can be day-month or month-day. A part above 12 decides; otherwise
 * the requested format does (US month first, EUR day first); failing that, dots and dashes read
 * day first (the European habit) and slashes month first (the American one).
 */
function numericDay(a: number, b: number, y: number, separator: string, format?: DateFormat) {
  if (a > 12 && b <= 12) return day(y, b, a);
  if (b > 12 && a <= 12) return day(y, a, b);
  const monthFirst = format === 'US' || (format !== 'EUR' && separator === '/');
  const read = monthFirst ? day(y, a, b) : day(y, b, a);
  return read && a !== b ? { ...read, ambiguous: true } : read;
}

/** Every date in the text, longest reading first at each position, without overlaps. */
export function findDates(text: string, format?: DateFormat): DateMention[] {
  const found: DateMention[] = [];
  // Only positions where a date can start: a digit, a letter starting a word, or a quote.
  const starts = /(?<![\p{L}\d])[\p{L}\d']/gu;
  let from = 0;
  for (const s of text.matchAll(starts)) {
    const at = s.index;
    if (at < from) continue;
    for (const { re, read, whole } of PATTERNS) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) continue;
      const parts = read(m, format);
      if (!parts && whole) {
        from = at + m[0].length;
        break;
      }
      if (!parts) continue;
      found.push({ start: at, end: at + m[0].length, text: m[0], ...parts });
      from = at + m[0].length;
      break;
    }
  }
  return found;
}

/** The first date in a short text, or null. */
export function parseDate(raw: string, format?: DateFormat): DateMention | null {
  return findDates(raw, format)[0] ?? null;
}

/** The date as the ISO 8601 date-time of its UTC midnight, the form DataValue.dateValue carries. */
export function toIsoDateTime(d: { year: number; month: number; day: number }): string {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).toISOString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The date written per the requested format: ISO 2024-03-01, EUR 01/03/2024, US 03/01/2024. */
export function formatDate(d: { year: number; month: number; day: number }, format: DateFormat = 'ISO'): string {
  const y = String(d.year).padStart(4, '0');
  switch (format) {
    case 'EUR':
      return `${pad(d.day)}/${pad(d.month)}/${y}`;
    case 'US':
      return `${pad(d.month)}/${pad(d.day)}/${y}`;
    case 'ISO':
      return `${y}-${pad(d.month)}-${pad(d.day)}`;
  }
}

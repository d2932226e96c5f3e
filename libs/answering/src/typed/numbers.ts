import type { TextSpan } from './text';

/** A number written in a text, with what was written around it. */
export interface NumberMention extends TextSpan {
  value: number;
  /** "%" for percentages (the value stays as written: 12.5% is 12.5). */
  percent: boolean;
  /** ISO code of a currency written with it (€1,200 → EUR), if any. */
  currency?: string;
  /** A unit written right after it and included in the span ("12 kg", "30 days"). */
  unit?: string;
  /** The word right after the number when it is not a known unit ("12 employees" → "employees"). */
  nextWord?: string;
  /** Not a whole number once read (3.7 is fractional; 3.0 and 3.5 million are not). */
  fractional: boolean;
  /**
   * The scale word the value was multiplied by ("M" in "81.1M", "crore" in "1,186 crore"), its
   * factor, and where the number ends without it: a question asking "in millions" wants 81.1.
   */
  scale?: { word: string; factor: number; bodyEnd: number };
}

const CURRENCY_SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', '₹': 'INR', CHF: 'CHF' };
const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY', 'INR', 'SEK', 'NOK', 'DKK'];

const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mio: 1e6,
  million: 1e6,
  millions: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  billions: 1e9,
  trillion: 1e12,
  trillions: 1e12,
  // The Indian scale words: a lakh is a hundred thousand, a crore ten million ("₹1,186 crore").
  lakh: 1e5,
  lakhs: 1e5,
  crore: 1e7,
  crores: 1e7,
};

/** Units kept inside the span: measures, durations, and the currency codes written after amounts. */
const UNITS = new Set(
  (
    'kg g mg t lb lbs oz km m cm mm mi ft in l ml gb mb kb tb ghz mhz hz kw kwh mw w v a °c °f c f ' +
    'second seconds sec secs minute minutes min mins hour hours hr hrs h day days week weeks month months year years yr yrs ' +
    'percent pct bp bps points pt pts'
  ).split(' '),
);

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  dozen: 12,
  hundred: 100,
};
const TENS = new Set(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);

// One number, in the order tried: European grouping with a decimal comma (1.234.567,89 or 1.234,5),
// Indian grouping (17,81,841: thousands, then pairs), English grouping (1,234,567.89), space
// grouping (1 234 567), then plain digits with an optional decimal part. A single "1.234" is read
// as English (one point two three four).
const BODY =
  '(?:\\d{1,3}(?:\\.\\d{3})+,\\d+|\\d{1,2}(?:,\\d{2})+,\\d{3}(?![,\\d])(?:\\.\\d+)?|\\d{1,3}(?:\\.\\d{3}){2,}|\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d{1,3}(?:[ \\u00a0\\u202f]\\d{3})+(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?|\\.\\d+)';
const NUMBER_RE = new RegExp(
  [
    '(?<open>\\()?',
    '(?:(?<code1>' + CURRENCY_CODES.join('|') + ')\\s?)?',
    '(?<sign>[-−+])?',
    '(?:(?<sym>[€$£¥₹])\\s?)?',
    '(?<body>' + BODY + ')',
    '(?<ord>st|nd|rd|th)?',
    '(?:\\s?(?<mult>k|K|mn|mio|bn|[mMbB](?![a-zA-Z])|thousand|millions?|billions?|trillions?|lakhs?|crores?)(?![a-zA-Z]))?',
    '(?:\\s?(?<pct>%|percent\\b|per cent\\b))?',
    '(?:\\s?(?<code2>' + CURRENCY_CODES.join('|') + ')\\b)?',
    '(?<close>\\))?',
  ].join(''),
  'g',
);
const WORD_NUMBER_RE = new RegExp(
  `\\b(?<tens>${[...TENS].join('|')})[- ](?<unit>one|two|three|four|five|six|seven|eight|nine)\\b|\\b(?<word>${Object.keys(WORD_NUMBERS).join('|')})\\b`,
  'gi',
);
const NEXT_WORD = /^[ \u00a0]?([\p{L}°][\p{L}.]*)/u;

/** Reads the digits of one number body, deciding which separator groups thousands. */
export function parseNumberBody(body: string): number {
  let s = body.replace(/[ \u00a0\u202f]/g, '');
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma > -1 && lastDot > -1) {
    // Both separators: the later one is the decimal separator.
    s = lastComma > lastDot ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  } else if (lastComma > -1 && /^\d{1,2}(?:,\d{2})+,\d{3}$/.test(s)) {
    s = s.replace(/,/g, ''); // Indian grouping: 17,81,841
  } else if (lastComma > -1) {
    const groups = s.split(',');
    // "1,234" and "1,234,567" group thousands; "1,5" and "12,25" are decimal commas.
    const thousands = groups.slice(1).every((g) => g.length === 3);
    s = thousands ? groups.join('') : s.replace(',', '.');
  } else if ((s.match(/\./g) ?? []).length > 1) {
    s = s.replace(/\./g, '');
  }
  return Number(s);
}

function unitAfter(text: string, end: number): { unit?: string; nextWord?: string; length: number } {
  const m = NEXT_WORD.exec(text.slice(end, end + 24));
  if (!m) return { length: 0 };
  const word = m[1].replace(/\.$/, '');
  if (UNITS.has(word.toLowerCase())) return { unit: word, length: m[0].length - (m[1].length - word.length) };
  return { nextWord: word, length: 0 };
}

/** Every number in the text, with its span, in text order. */
export function findNumbers(text: string): NumberMention[] {
  const found: NumberMention[] = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const g = m.groups ?? {};
    let start = m.index;
    let end = start + m[0].length;
    // A digit run glued to letters (A4, 3G, COVID-19) is an identifier, not a quantity.
    if (start > 0 && /[\p{L}\d]/u.test(text[start - 1]) && !g.open) continue;
    if (g.open && !g.close) start += 1;
    if (g.close && !g.open) end -= 1;
    let value = parseNumberBody(g.body);
    if (!Number.isFinite(value)) continue;
    const currency = g.code1 ?? g.code2 ?? (g.sym ? CURRENCY_SYMBOLS[g.sym] : undefined);
    const multKey = g.mult?.toLowerCase();
    // "3m" is three metres unless it is money; "M" alone always reads as million.
    const multiplies = Boolean(multKey && (multKey !== 'm' || currency || g.mult === 'M') && (multKey !== 'b' || currency));
    let scale: NumberMention['scale'];
    if (multKey && multiplies) {
      const at = m[0].indexOf(g.mult, m[0].indexOf(g.body) + g.body.length);
      scale = { word: g.mult, factor: MULTIPLIERS[multKey], bodyEnd: m.index + at - (m[0][at - 1] === ' ' ? 1 : 0) };
      // toPrecision drops the binary noise of 1.1 × 1e6 = 1100000.0000000002.
      value = Number((value * MULTIPLIERS[multKey]).toPrecision(15));
    } else if (g.mult) {
      end = start + m[0].indexOf(g.mult, m[0].indexOf(g.body) + g.body.length);
      if (text[end - 1] === ' ') end -= 1;
    }
    // Accounting negatives are an amount alone in parentheses, "(4)" or "($1,200)"; "(1.91 m)" is a
    // height in a parenthesis and "(5%)" an aside.
    const accounting = Boolean(g.open && g.close && !g.pct && (!g.mult || multiplies));
    if (g.sign === '-' || g.sign === '−' || accounting) value = -value;
    const percent = Boolean(g.pct);
    const after = percent || currency ? { length: 0 } : unitAfter(text, end);
    found.push({
      start,
      end: end + after.length,
      text: text.slice(start, end + after.length),
      value,
      percent,
      currency,
      unit: 'unit' in after ? after.unit : undefined,
      nextWord: 'nextWord' in after ? after.nextWord : undefined,
      fractional: !Number.isInteger(value),
      scale,
    });
  }
  for (const m of text.matchAll(WORD_NUMBER_RE)) {
    const g = m.groups ?? {};
    const value = g.tens ? WORD_NUMBERS[g.tens.toLowerCase()] + WORD_NUMBERS[g.unit.toLowerCase()] : WORD_NUMBERS[g.word.toLowerCase()];
    const end = m.index + m[0].length;
    const after = unitAfter(text, end);
    found.push({
      start: m.index,
      end: end + after.length,
      text: text.slice(m.index, end + after.length),
      value,
      percent: false,
      unit: after.unit,
      nextWord: after.nextWord,
      fractional: false,
    });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The first number of a short text ("USD 3m" → 3000000), or null. */
export function parseNumber(raw: string): NumberMention | null {
  return findNumbers(raw)[0] ?? null;
}

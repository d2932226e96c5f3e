import { findNumbers, type NumberMention } from '../typed/numbers';
import type { SentenceView } from './lattice';
import type { AnalyzedQuestion } from './question';
import { tokenize } from './tokens';

/**
 * Whether a typed mention can be what the question asks for. `veto` names why no person would take
 * it (a section number for a count, a standard's number for a density); `fit` below 1 marks a
 * mention that could be the answer but rarely is (a year for "how many"), and scales the answer's
 * confidence, so that a doubtful sole candidate is withheld rather than answered.
 */
export interface Plausibility {
  veto?: string;
  fit: number;
  /** Features for the scoring model ("unit=fit"). */
  extra: string[];
}

const OK: Plausibility = { fit: 1, extra: [] };

/**
 * Words after which a number is a reference, not a quantity: sections, paragraphs, standards, forms,
 * pages, footnotes, ids and phone numbers. The question naming the word ("Which section …", "What
 * is the form number?") lifts the veto.
 */
const REFERENCE_WORDS =
  'section sections sec s ss paragraph paragraphs para paras art article articles clause clauses part parts chapter chapters chap ch title titles subpart ' +
  'page pages pp p fig figure figures table tables note notes footnote footnotes schedule exhibit appendix annex item items rule ' +
  'rules regulation regulations form forms no nos nr number numbers model version ver v rev revision standard volume vol line lines ' +
  'step id ref reference code tel telephone phone fax mobile box suite room floor invoice order account acct serial case docket ' +
  'file claim policy iso jis din en astm ieee iec bs ansi rfc nfpa ul sae api';
const REFERENCE_WORD = new Set(REFERENCE_WORDS.split(' '));
/** The word (with an optional series letter, "JIS G 4108") or sign right before a number. */
const BEFORE_WORD = /(§§?|¶|#|[\p{L}]+)\.?\s*(?:[A-Z]\s?)?[#:]?\s*$/u;
/** An upper-case code right before a number ("ISO 9001", "EN 10204"): a standard or a model, not a quantity. */
const BEFORE_ACRONYM = /(?:^|[^\p{L}])\p{Lu}{2,6}(?:\s\p{Lu})?\s?$/u;
/** "(b)(3)", "[12]": the numbering of a paragraph or a footnote. */
const BEFORE_ENUMERATOR = /\([a-z0-9]{1,4}\)\s*$/i;

export type UnitClass = 'mass' | 'length' | 'time' | 'percent' | 'money' | 'temperature' | 'density' | 'area' | 'volume';

const UNIT_CLASS: Record<string, UnitClass> = {};
const classOf = (cls: UnitClass, words: string) => words.split(' ').forEach((w) => (UNIT_CLASS[w] = cls));
classOf('mass', 'kg g mg t lb lbs oz tonne tonnes ton tons kilogram kilograms gram grams pound pounds');
classOf(
  'length',
  'km m cm mm mi ft in metre metres meter meters kilometre kilometres kilometer kilometers foot feet inch inches mile miles',
);
classOf('time', 'second seconds sec secs minute minutes min mins hour hours hr hrs h day days week weeks month months year years yr yrs');
classOf('percent', 'percent pct %');
classOf('temperature', '°c °f');

/** What the question's words say the answer measures ("How heavy", "weight", "in metres"). */
const QUESTION_CLASS: Record<string, UnitClass[]> = {};
const asks = (classes: UnitClass[], words: string) => words.split(' ').forEach((w) => (QUESTION_CLASS[w] = classes));
asks(['mass'], 'weight weigh weighs weighed heavy mass kg kilograms kilogram pounds lb lbs grams tonnes');
asks(
  ['length'],
  'tall height length wide width distance far deep depth diameter thick thickness metres meters metre meter km cm mm feet inches miles',
);
asks(['time'], 'duration days weeks months hours minutes');
asks(['percent'], 'percent percentage');
asks(['money'], 'price prices priced cost costs fee fees salary wage wages paid pay dollars euros pounds');
asks(['temperature'], 'temperature');
asks(['density'], 'density');

/** Words that ask for a count or an amount, never a year. */
const COUNT_TYPES = new Set(['howmany', 'howmuch', 'howadj']);

/** The classes of measure the question asks for, or an empty list when it names none. */
export function askedClasses(q: AnalyzedQuestion): UnitClass[] {
  const out = new Set<UnitClass>();
  for (const w of q.words) for (const c of QUESTION_CLASS[w] ?? []) out.add(c);
  if (q.type === 'howlong') {
    // "How long is the term?" is a duration, "How long is the bridge?" a length: either fits.
    out.add('time');
    out.add('length');
  }
  if (out.has('money') && out.has('mass')) out.delete('mass'); // "pounds" in "price in pounds"
  return [...out];
}

/** The class of what is written with a number: its unit, percent sign or currency. */
export function mentionClass(n: NumberMention, afterSpan: string): UnitClass | undefined {
  // The unit is inside the span ("7.85 g"), what follows it may complete it ("/cm3").
  const after = (n.unit ? ` ${n.unit}` : '') + afterSpan;
  if (/^\s?(?:g|kg|lb)\s?\/\s?(?:cm|m|ml|l|ft|in)(?:3|³|\^3)?/i.test(after)) return 'density';
  if (/^\s?(?:m2|m²|km2|km²|sq\.?\s?(?:m|ft|km)|square|hectares?|ha|acres?)\b/i.test(after)) return 'area';
  if (/^\s?(?:m3|m³|l|ml|litres?|liters?|gallons?|cubic)\b/i.test(after)) return 'volume';
  if (n.percent) return 'percent';
  if (n.currency) return 'money';
  return n.unit ? UNIT_CLASS[n.unit.toLowerCase()] : undefined;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  k: 1e3,
  lakh: 1e5,
  lakhs: 1e5,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  m: 1e6,
  crore: 1e7,
  crores: 1e7,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  trillion: 1e12,
  trillions: 1e12,
};
// "in millions", "in crore rupees", "in $ billions", "in millions of dollars", "(in thousands)"; a
// bare "m" or "k" only after a currency ("in $m"), as "in M&A" is no scale.
const ASKED_SCALE =
  /\bin\s+(?:(?:[$€£₹]|usd|eur|gbp|inr|rs)\s*(thousands?|k|lakhs?|millions?|mn|m|crores?|billions?|bn|trillions?)|(thousands?|lakhs?|millions?|mn|crores?|billions?|bn|trillions?))\b/i;

/**
 * The unit of count the question wants the value in ("How many papers, in millions?" → 1e6), or
 * undefined: "81.1M" then answers 81.1, as a table "in millions" would write it.
 */
export function askedScale(question: string): number | undefined {
  const m = ASKED_SCALE.exec(question);
  return m ? SCALES[(m[1] ?? m[2]).toLowerCase()] : undefined;
}

/** Years written in the question ("in 2023", "January-June 2023"). */
export function questionYears(q: AnalyzedQuestion): string[] {
  return q.tokens.filter((t) => /^(1[89]|20)\d\d$/.test(t.text)).map((t) => t.text);
}

/** The passage's header row among its headings (cells joined with " | ", as many as the row's), split in cells. */
function headerCells(view: SentenceView): string[] | null {
  const cells = view.passage.text.split(' | ').length;
  if (cells < 2) return null;
  for (let k = view.passage.headings.length - 1; k >= 0; k--) {
    const h = view.passage.headings[k].split(' | ');
    if (h.length === cells) return h;
  }
  return null;
}

/** Index of the cell of a row passage that holds character `at`, or -1 outside a row. */
function cellIndex(view: SentenceView, at: number): number {
  if (view.segments.length < 2) return -1;
  let cell = 0;
  for (let k = view.passage.text.indexOf(' | '); k >= 0 && k < at; k = view.passage.text.indexOf(' | ', k + 1)) cell++;
  return cell;
}

const GENERIC_TERMS = new Set(['number', 'total', 'amount', 'valu', 'figur', 'much', 'mani', 'year', 'period', 'month', 'quarter']);

/**
 * How well a row passage names what the question asks about: 1 when its label cells or headings
 * name the question's focus ("How many *employees*"), 0.4 when they name only other terms of it
 * (the company the headings name, not the measure: "Employees" may be written "Staff"), 0 when
 * they name none of them.
 */
function rowFit(view: SentenceView, q: AnalyzedQuestion): number {
  const asked = [...q.terms].filter((t) => !GENERIC_TERMS.has(t) && !/^\d+$/.test(t) && !MONTHS.has(t));
  if (!asked.length) return 1;
  const words = [...view.tokens, ...view.passage.headings.flatMap((h) => tokenize(h))];
  const labels = new Set(words.filter((t) => t.shape !== 'd' && t.shape !== 'p').map((t) => t.stem));
  if (q.focus && asked.includes(q.focus) && labels.has(q.focus)) return 1;
  if (!asked.some((t) => labels.has(t))) return 0;
  return q.focus && asked.includes(q.focus) ? 0.4 : 1;
}
const MONTHS = new Set(
  'januari februari march april mai june juli august septemb octob novemb decemb jan feb mar apr jun jul aug sep oct nov dec'.split(' '),
);

/**
 * Plausibility of a number as the answer to an INT or FLOAT question. `text` is the sentence, the
 * mention's offsets are relative to it, `view.start` places it in the passage.
 */
export function numberPlausibility(n: NumberMention, text: string, view: SentenceView, q: AnalyzedQuestion): Plausibility {
  const before = text.slice(Math.max(0, n.start - 24), n.start);
  const after = text.slice(n.end, n.end + 16);
  const ref = referenceBefore(before, q);
  if (ref) return { veto: ref, fit: 0, extra: [] };
  if (/^\s?\]/.test(after) && /\[\s?$/.test(before)) return { veto: 'a footnote marker', fit: 0, extra: [] };
  if (/^\($/.test(text.slice(n.start, n.start + 1)) && /\)$/.test(before)) return { veto: 'a paragraph number', fit: 0, extra: [] };
  // "555-1234", "+44 20 7946 0958", "4108-2010": digits of a code, not one quantity.
  const around = text.slice(Math.max(0, n.start - 12), n.end + 12);
  if (/\+?\d[\d ().-]{8,}\d/.test(around) && (around.match(/\d+/g) ?? []).length >= 3 && !n.currency && !n.percent)
    return { veto: 'part of a phone number or code', fit: 0, extra: [] };
  if (/^-\d/.test(after) && !n.unit) return { veto: 'part of a code', fit: 0, extra: [] };
  // "14 CFR 11.35", "11 U.S.C. § 1302": the title of a code, not a quantity.
  if (
    n.nextWord &&
    CODE_AFTER.test(n.nextWord) &&
    !QUANTITY_ACRONYMS.has(n.nextWord.toLowerCase()) &&
    !q.words.has(n.nextWord.toLowerCase())
  )
    return { veto: `the number of a code ("${text.slice(n.start, n.end)} ${n.nextWord}")`, fit: 0, extra: [] };

  const extra: string[] = [];
  let fit = 1;
  const written = text.slice(n.start, n.end);
  const asked = askedClasses(q);
  const has = mentionClass(n, after);
  if (asked.length) {
    if (has && asked.includes(has)) extra.push('unit=fit');
    else if (has && !(has === 'money' && asked.includes('money')))
      return { veto: `a ${has} value, not the ${asked.join(' or ')} asked for`, fit: 0, extra: [] };
    else if (!has && !asked.includes('money')) {
      // A weight or a length comes with its unit; a bare number is likelier another figure.
      extra.push('unit=none');
      fit *= 0.5;
    }
  }
  if (
    COUNT_TYPES.has(q.type) &&
    /^(1[89]|20)\d\d$/.test(written) &&
    !extra.includes('unit=fit') &&
    !(n.nextWord && q.terms.has(n.nextWord.toLowerCase().slice(0, 5)))
  ) {
    // "How many employees" answered "2019": a year is not a count.
    if (!asked.length && !(n.nextWord && [...q.terms].some((t) => n.nextWord!.toLowerCase().startsWith(t))))
      return { veto: 'a year, not a count', fit: 0, extra: [] };
  }
  // "reports 7." with 7 a footnote mark after the word: a bare small number closing a clause.
  if (
    /^\d{1,2}$/.test(written) &&
    !n.nextWord &&
    !n.unit &&
    /^\s*(?:[.,;:]|$)/.test(after) &&
    /\b\p{Ll}{3,}\s$/u.test(before) &&
    !/\b(?:of|to|is|was|were|are|be|been|about|around|approximately|than|by|at|from|only|totalled|totaled|numbered|reached|counted|stood|with|had|has|have|employs|employed)\s$/i.test(
      before,
    )
  ) {
    extra.push('footnote');
    fit *= 0.5;
  }
  // "three" in "the three of them met": a number written out is seldom the figure asked for,
  // unless the thing counted follows it ("only three typical kinds of nuts").
  if (/^\p{L}/u.test(written) && !countedNext(text, n.end, q)) {
    extra.push('word-number');
    fit *= 0.7;
  }
  // "How many 737 MAX airplanes …", "… where 'first' is 4": a number the question itself
  // writes is what it asks about, not the answer.
  if (questionNumbers(q).includes(n.value) && !extra.includes('unit=fit')) {
    extra.push('in-question');
    fit *= 0.5;
  }
  // "$85 per work-hour" for an hourly rate; "$7,650" is the total it multiplies into.
  if (asksRate(q) && RATE_AFTER.test(after)) extra.push('rate=fit');
  // "Form 1040", "Windows 10", "Apollo 11": a number in a name.
  if (!n.unit && !n.currency && !n.percent && /[^.!?|\s]\s+\p{Lu}\p{Ll}+\s$/u.test(before) && !/^\s*\p{Ll}/u.test(after)) {
    extra.push('in-name');
    fit *= 0.7;
  }
  const column = referenceColumn(n.start, view, q);
  if (column) return { veto: column, fit: 0, extra: [] };
  const period = periodMismatch(n.start, view, q, text);
  if (period) return { veto: period, fit: 0, extra: [] };
  if (view.segments.length > 1) {
    const row = rowFit(view, q);
    if (!row) return { veto: 'a value of a row about something else', fit: 0, extra: [] };
    fit *= row;
  }
  return { fit, extra };
}

/** An upper-case code after a number ("CFR", "U.S.C.", "MAX"): a title or model number comes before it. */
const CODE_AFTER = /^(?:\p{Lu}{2,6}|(?:\p{Lu}\.){2,}\p{Lu}?\.?)$/u;
/** Upper-case units that do follow quantities. */
const QUANTITY_ACRONYMS = new Set(
  'psi mph kph kmh rpm fte ftes btu dpi ppi ppm ppb hp gw mw kw kwh mwh gwh twh mb gb tb kb mbps gbps ghz mhz khz db usd eur gbp ml cc'.split(
    ' ',
  ),
);

/** Whether a content word of the question follows a number within three words ("three *kinds* of nuts"). */
function countedNext(text: string, end: number, q: AnalyzedQuestion): boolean {
  const next = tokenize(text.slice(end, end + 48))
    .filter((t) => t.shape !== 'p')
    .slice(0, 3);
  return next.some((t) => !t.stop && q.terms.has(t.stem));
}

const questionNumberCache = new WeakMap<AnalyzedQuestion, number[]>();
/** The numbers written in digits in the question. */
function questionNumbers(q: AnalyzedQuestion): number[] {
  let out = questionNumberCache.get(q);
  if (!out) {
    out = q.tokens.filter((t) => t.shape === 'd').flatMap((t) => findNumbers(t.text).map((n) => n.value));
    questionNumberCache.set(q, out);
  }
  return out;
}

/** "What hourly rate …", "the fee per page": the question asks for an amount per unit. */
function asksRate(q: AnalyzedQuestion): boolean {
  return ['hourly', 'daily', 'weekly', 'monthly', 'per', 'rate', 'each'].some((w) => q.words.has(w));
}
const RATE_AFTER = /^\s?(?:per\b|\/\s?\p{L}|an?\s+(?:hour|day|week|month|year|page|unit|share)\b|each\b|apiece\b)/iu;

/** The reference a number is the number of ("§ 1302", "JIS G 4108", "page 12"), or undefined. */
function referenceBefore(before: string, q: AnalyzedQuestion): string | undefined {
  if (BEFORE_ENUMERATOR.test(before)) return 'the number of a paragraph';
  const m = BEFORE_WORD.exec(before);
  if (m) {
    const word = m[1].toLowerCase();
    if ((word === '§' || word === '§§' || word === '¶' || word === '#' || REFERENCE_WORD.has(word)) && !q.words.has(word))
      return `a reference number ("${before.slice(m.index).trim()} …")`;
  }
  if (BEFORE_ACRONYM.test(before) && !/\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|FY|Q[1-4]|H[12])\s?$/.test(before)) {
    const word = /(\p{Lu}{2,6})(?:\s\p{Lu})?\s?$/u.exec(before)?.[1].toLowerCase() ?? '';
    if (!q.words.has(word)) return `a code or standard number ("${before.trim().split(/\s+/).slice(-2).join(' ')} …")`;
  }
  return undefined;
}

/** A value in a column of reference numbers ("Exhibit No. | Description": "10.37"), unless the question names the column's word. */
function referenceColumn(at: number, view: SentenceView, q: AnalyzedQuestion): string | undefined {
  const header = headerCells(view);
  const cell = cellIndex(view, view.start + at);
  const label = header && cell >= 0 ? header[cell] : undefined;
  if (!label) return undefined;
  const words = label.toLowerCase().match(/[\p{L}§#]+/gu) ?? [];
  if (words.length > 3 || !words.some((w) => REFERENCE_WORD.has(w)) || words.some((w) => q.words.has(w))) return undefined;
  return `a reference number (the "${label.trim()}" column)`;
}

/**
 * A period other than the one asked: the question names a year and the value's column (its header
 * cell) or its cell names only other years. "January-June 2022" is not the answer for 2023.
 */
function periodMismatch(at: number, view: SentenceView, q: AnalyzedQuestion, text: string): string | undefined {
  const years = questionYears(q);
  if (!years.length) return undefined;
  const header = headerCells(view);
  const cell = cellIndex(view, view.start + at);
  const label = header && cell >= 0 ? header[cell] : undefined;
  const own = label ?? (cell >= 0 ? view.passage.text.split(' | ')[cell] : text);
  const named = own.match(/\b(1[89]|20)\d\d\b/g) ?? [];
  if (label === undefined && cell < 0) return undefined; // prose: a sentence may name several years
  if (named.length && !named.some((y) => years.includes(y))) return `a value for ${named.join(', ')}, not ${years.join(', ')}`;
  return undefined;
}

/** Plausibility of a date: "§ 1302" and "Section 2019" are references, not years. */
export function datePlausibility(start: number, text: string, q: AnalyzedQuestion, precision: string): Plausibility {
  if (precision !== 'year') return OK;
  const before = text.slice(Math.max(0, start - 24), start);
  const m = BEFORE_WORD.exec(before);
  if (m) {
    const word = m[1].toLowerCase();
    if ((word === '§' || word === '§§' || word === '¶' || word === '#' || REFERENCE_WORD.has(word)) && !q.words.has(word))
      return { veto: `a reference number ("${before.slice(m.index).trim()} …")`, fit: 0, extra: [] };
  }
  if (BEFORE_ACRONYM.test(before) && !/\b(?:FY|Q[1-4]|H[12]|AD|CE|BC|BCE)\s?$/.test(before))
    return { veto: 'a code or standard number', fit: 0, extra: [] };
  return OK;
}

/**
 * Words that are never, on their own, the person or organisation a who-question asks for: pronouns
 * and demonstratives ("I", "This", "Here"), the parts of a document ("Exhibit 31.1", "Changes",
 * "Federal Register") and company suffixes without their name ("Inc").
 */
const NOT_A_NAME = new Set(
  (
    'i me my mine we us our ours you your he him his she her hers it its they them their theirs this that these those here there ' +
    'who whom whose which what such same each either neither both all any some none one other another ' +
    'a an the and or of for to in on at by with from as mr mrs ms dr sir madam ' +
    'exhibit exhibits section sections chapter part article schedule appendix annex table figure page note notes item items form ' +
    'change changes register federal title contents index summary introduction preface abstract references signature signatures ' +
    'date dated name names undersigned registrant ' +
    'inc inc. incorporated ltd ltd. llc llp lp plc co co. corp corp. gmbh ag sa nv bv pty limited'
  ).split(' '),
);

/** Words that name a position held ("Chief Executive Officer", "Director", "Trustee"). */
const ROLE_WORDS = new Set(
  (
    'officer chief executive president vice chairman chairwoman chairperson chair director secretary treasurer controller ' +
    'manager partner counsel trustee founder ceo cfo coo cto cio chancellor governor minister commissioner administrator ' +
    'head principal member dean editor general attorney agent clerk auditor accountant'
  ).split(' '),
);

/** Words that qualify a role ("Senior Vice President", "Acting Director"). */
const RANKS = new Set('senior junior deputy assistant associate acting interim managing lead co executive first second'.split(' '));

/** "What is the title of the person …", "his position": a question asking for a role, not a document's title. */
const ASKS_ROLE_WORDS = new Set(['title', 'position', 'role', 'office', 'capacity', 'designation', 'job']);
const PERSON_CUES = new Set([
  'person',
  'officer',
  'signer',
  'signatory',
  'his',
  'her',
  'their',
  'individual',
  'he',
  'she',
  'who',
  'executive',
]);

/** Nouns of a place: "In which city…", "What country…" ask for a place, as "where" does. */
const PLACE_STEMS = new Set(
  tokenize('city town village country state province region county place location capital headquarters seat').map((t) => t.stem),
);

/** The legal form that ends an organisation's name ("Globex Corporation", "Northwind Traders Ltd"). */
const ORGANISATION_FORMS = new Set(
  'inc inc. incorporated corporation corp corp. company co co. ltd ltd. limited llc llp lp plc gmbh ag sa nv bv pty group holdings bank'.split(
    ' ',
  ),
);

/** A question for a place: "where", or the focus is a place noun ("which city"). */
function asksPlace(q: AnalyzedQuestion): boolean {
  return q.type === 'where' || PLACE_STEMS.has(q.focus);
}

/** Nouns of a measurement: a question whose focus is one of them asks for a number with its unit. */
const MEASURE_STEMS = new Set(
  tokenize('size dimension dimensions length width height depth weight thickness diameter area volume capacity').map((t) => t.stem),
);

/** "What telephone number …", "the fax number of …": a question for a number to dial. */
const DIAL_WORDS = new Set(['phone', 'telephone', 'tel', 'fax', 'mobile', 'cell']);

/** The fewest digits of a telephone number (short local and service numbers included). */
const MIN_DIAL_DIGITS = 5;

function asksDialNumber(q: AnalyzedQuestion): boolean {
  return [...q.words].some((w) => DIAL_WORDS.has(w)) && (q.words.has('number') || q.words.has('numbers'));
}

export function asksRole(q: AnalyzedQuestion): boolean {
  return [...q.words].some((w) => ASKS_ROLE_WORDS.has(w)) && [...q.words].some((w) => PERSON_CUES.has(w));
}

/**
 * Whether a STRING span can answer a who-question or a role question: `drop` when it is only
 * pronouns, document parts and company suffixes (and numbers), `extra` the features for the model.
 */
export function spanPlausibility(
  view: SentenceView,
  i: number,
  j: number,
  q: AnalyzedQuestion,
  role: boolean,
): { drop: boolean; extra: string[] } {
  const words = view.tokens.slice(i, j + 1).filter((t) => t.shape !== 'p');
  if (q.type === 'who' && words.every((t) => t.shape === 'd' || NOT_A_NAME.has(t.lower))) return { drop: true, extra: [] };
  const digits = words.reduce((n, t) => n + (t.text.match(/\d/g)?.length ?? 0), 0);
  // A telephone or fax number is something to dial: a span without the digits of one is no answer.
  if (asksDialNumber(q) && digits < MIN_DIAL_DIGITS) return { drop: true, extra: [] };
  // A place is not the organisation based in it: "Globex Corporation" does not answer "In which city…?".
  if (asksPlace(q) && words.length && ORGANISATION_FORMS.has(words[words.length - 1].lower)) return { drop: true, extra: [] };
  // "What size must the photo be?" is answered by a measurement ("2x2 inches"), which has a number.
  if (MEASURE_STEMS.has(q.focus)) return { drop: false, extra: [digits ? 'measure=fit' : 'measure=none'] };
  // The role itself, not the name before it: "Chief Executive Officer", "Senior Vice President".
  if (role && words.length && (ROLE_WORDS.has(words[0].lower) || RANKS.has(words[0].lower)) && words.some((t) => ROLE_WORDS.has(t.lower)))
    return { drop: false, extra: ['role=asked'] };
  if (role) return { drop: false, extra: ['role=none'] };
  return { drop: false, extra: [] };
}

/**
 * Verbs and nouns of events a date question asks about ("signed", "effective", "meeting"): a
 * document holds many dates, and the one written beside the question's event is the likelier answer.
 */
const EVENT_STEMS = new Set(
  tokenize(
    'signed signature effective effect meeting meet published publication amended amendment appointed appointment ' +
      'posted launched launch held filed filing received receipt issued issue approved approval adopted executed expires expiry ' +
      'expiration terminated termination commenced commencement started begins ended ends closed closing submitted submission ' +
      'due deadline updated update founded incorporated born died elected resigned retired hired joined entered opened ' +
      'announced released release enacted presented certified granted registered renewed',
  ).map((t) => t.stem),
);

const CLAUSE_BREAK = new Set(['and', 'but', 'or', ',', ';', 'while', 'whereas', 'then']);

/** Tokens between a date and the question's event word at most for the word to count as beside it. */
const EVENT_WINDOW = 8;

/**
 * Which of a sentence's dates (token ranges) sit beside a word of the question's event ("signed"
 * in "On what date was the rule signed?"): for each such word, the nearest date within a few
 * tokens (on a tie the one after it: "signed on …"); and every date whose column header names the
 * event. Empty when the question names no event.
 */
export function eventDates(view: SentenceView, dates: readonly [number, number][], q: AnalyzedQuestion): Set<number> {
  const out = new Set<number>();
  const events = [...q.terms].filter((t) => EVENT_STEMS.has(t));
  if (!events.length || !dates.length) return out;
  view.tokens.forEach((t, k) => {
    if (!events.includes(t.stem)) return;
    let best = -1;
    let bestRank = Infinity;
    dates.forEach(([i, j], d) => {
      if (i < 0 || (k >= i && k <= j)) return;
      const distance = k < i ? i - k : k - j + 0.5;
      if (distance > EVENT_WINDOW) return;
      // A date across "and" or a comma from the word belongs to the clause beside it more often
      // ("revised on June 5, 2019 and signed … on July 14, 2020").
      const between = k < i ? view.tokens.slice(k + 1, i) : view.tokens.slice(j + 1, k);
      const rank = distance + 4 * between.filter((t) => CLAUSE_BREAK.has(t.lower)).length;
      if (rank < bestRank) {
        bestRank = rank;
        best = d;
      }
    });
    if (best >= 0) out.add(best);
  });
  const header = headerCells(view);
  if (header) {
    dates.forEach(([i], d) => {
      const cell = cellIndex(view, view.tokens[i].start);
      if (cell >= 0 && header[cell] && tokenize(header[cell]).some((t) => events.includes(t.stem))) out.add(d);
    });
  }
  return out;
}

/** Whether tokens k.. open an enumerator such as "(b)" or "(ii)", which starts a new clause of a list sentence. */
function opensEnumerator(view: SentenceView, k: number): boolean {
  const t = view.tokens;
  return t[k]?.text === '(' && k + 2 < t.length && /^[a-z]{1,3}$|^\d{1,2}$/i.test(t[k + 1].text) && t[k + 2].text === ')';
}

/**
 * Which allowed-value mentions (token ranges, with the value each names) sit in the clause that
 * holds the most of the question's own words, when a sentence names several different values: in
 * "the Boots nuts, representing the all-metal types; and the elastic stop nut, representing the
 * fiber insert type", the question about the elastic stop nut is answered by the value of its own
 * clause, not by whichever value the model likes. Clauses end at ";" and ":" and before an
 * enumerator "(b)". Words of the allowed values themselves are not counted, since they say nothing
 * about which value is meant. Empty when one value is named, or no clause holds more than the others.
 */
export function enumClauseMatches(
  view: SentenceView,
  mentions: readonly { range: [number, number]; value: string }[],
  q: AnalyzedQuestion,
  enumValues: readonly string[],
): Set<number> {
  const out = new Set<number>();
  if (new Set(mentions.map((m) => m.value)).size < 2) return out;
  const valueStems = new Set(enumValues.flatMap((v) => tokenize(v).map((t) => t.stem)));
  const asked = new Set([...q.terms].filter((t) => !valueStems.has(t)));
  const clauseOf: number[] = [];
  let clause = 0;
  view.tokens.forEach((t, k) => {
    if (opensEnumerator(view, k)) clause++;
    clauseOf.push(clause);
    if (t.text === ';' || t.text === ':') clause++;
  });
  const termsIn = new Map<number, Set<string>>();
  view.tokens.forEach((t, k) => {
    if (!asked.has(t.stem)) return;
    const c = clauseOf[k];
    if (!termsIn.has(c)) termsIn.set(c, new Set());
    termsIn.get(c)?.add(t.stem);
  });
  const counts = mentions.map((m) => termsIn.get(clauseOf[m.range[0]])?.size ?? 0);
  const max = Math.max(...counts);
  // Only a clause that says more of the question than the clause of some other value tells them apart.
  const others = mentions.filter((m, k) => counts[k] < max && !mentions.some((o, l) => counts[l] === max && o.value === m.value));
  if (max === 0 || !others.length) return out;
  counts.forEach((c, k) => c === max && out.add(k));
  return out;
}

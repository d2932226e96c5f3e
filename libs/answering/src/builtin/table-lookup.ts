import type { AnswerTypeDto } from '@docintel/contracts';
import { notFound, type ReaderAnswer, type ReaderPassage } from '../reader';
import { formatRawValue, toDataValue } from '../typed/data-value';
import { decide, type DecisionThresholds } from './decision';
import type { AnalyzedQuestion } from './question';
import { tokenize } from './tokens';

/**
 * Facts laid out as tables and as "key: value" lines, answered by their structure rather than read
 * like prose: a row passage ("Illinois | 87,190 | 24,412") is answered by the cell whose *row*
 * names the question's entity and whose *column* (the table's header row, the passage's innermost
 * heading) names the measure asked; a key/value line ("stateOfIncorporation: DE", "Grade : SNB22-3",
 * a two-cell row "Date of birth | 26 June 1968") by the value whose key names what is asked. The
 * span reader cannot do either: a row carries no words around its numbers, and the key of a fact
 * is one run-together word.
 */

/** One cell of a row passage: its text and character span in the passage. */
interface Cell {
  text: string;
  start: number;
  end: number;
  /** Stems of its words, numbers excluded. */
  stems: Set<string>;
  /** Its value when the whole cell is one number ("87,190", "(2,208,887)", "70%"). */
  number?: number;
}

interface Row {
  passage: ReaderPassage;
  passageIndex: number;
  cells: Cell[];
  /** The header cell above each cell, aligned; '' where there is none. */
  header: { text: string; stems: Set<string> }[] | null;
  /** The header row and headings as one string: rows of one table share it. */
  table: string;
}

/** A cell or a value that answers, with the evidence for it. */
export interface TableHit {
  passage: ReaderPassage;
  passageIndex: number;
  start: number;
  end: number;
  text: string;
  /** How strongly the row (or key) and the column name what is asked, 0..1. */
  strength: number;
  /** Share of the question's weighted terms the row, its header and headings account for, 0..1. */
  coverage: number;
  /** For the explanation: how the value was found. */
  how: string;
}

/**
 * Measure words a table's header may write otherwise than the question, by stem. Kept small and
 * common: a header names its measure in a word or two, and these are the usual alternatives.
 */
const SYNONYMS: string[][] = [
  ['revenu', 'sale', 'turnov'],
  ['staff', 'employe', 'headcount', 'personnel', 'workforc'],
  ['profit', 'earn', 'incom'],
  ['loss', 'deficit'],
  ['price', 'cost'],
  ['telephon', 'phone'],
  ['websit', 'url', 'homepag'],
  ['email', 'e-mail'],
  ['birth', 'born'],
  ['descript', 'descr'],
  ['incorpor', 'incorporated'],
  // "What kind of filer" is answered by a "category" key.
  ['kind', 'type', 'categori', 'sort', 'class'],
  // "nationwide", "combined", "overall" ask for the row or column that sums the others ("Totals").
  ['total', 'nationwid', 'combin', 'overal', 'altogeth'],
];
const SYNONYM_OF = new Map<string, string[]>();
for (const group of SYNONYMS) for (const s of group) SYNONYM_OF.set(s, group);

/** Words of a question that say little about which row or column is meant: they count a fifth. */
const GENERIC = new Set([
  'valu',
  'figur',
  'amount',
  'number',
  'list',
  'entri',
  'tabl',
  'column',
  'row',
  'show',
  'given',
  'total',
  'appear',
  'listed',
]);
/** Words that name a table's own parts ("in the time column"): a table explains them by being one. */
const STRUCTURE = new Set(['tabl', 'column', 'row', 'entri', 'cell']);
/** The words that ask for the row with the most or the least of a column. */
const MOST = /\b(?:largest|highest|most|greatest|biggest|maximum|top)\b/i;
const LEAST = /\b(?:smallest|lowest|least|fewest|minimum)\b/i;
/** Rows that sum others up: never the answer to "which state had the most". */
const SUM_ROW = /^(?:totals?|sum|all|overall|grand total|subtotal)\b/i;

/** Stems of a text's words; bare numbers are values, not words ("col-3" is a word). */
const stemsOf = (text: string): Set<string> =>
  new Set(
    tokenize(text)
      .filter((t) => !t.stop && /\p{L}/u.test(t.text))
      .map((t) => t.stem),
  );

/**
 * Whether a header's stem names a question's: the same stem, a synonym, or one a prefix of the
 * other from six letters on (the stemmer leaves "registration" as registr, "registered" as regist).
 */
function names(stems: ReadonlySet<string>, t: string): boolean {
  if (stems.has(t) || (SYNONYM_OF.get(t) ?? []).some((s) => stems.has(s))) return true;
  if (t.length < 6) return false;
  for (const s of stems) if (s.length >= 6 && (s.startsWith(t) || t.startsWith(s))) return true;
  return false;
}

/** A cell that is one number, as a value ("(4)" and "4)" are accounting negatives, "70%" is 70). */
function cellNumber(text: string): number | undefined {
  const m = /^\(?\s*([-−+]?)\s*[$€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*%?\s*\)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[2].replace(/,/g, '') + (m[3] ?? ''));
  return (m[1] === '-' || m[1] === '−' || text.trim().startsWith('(') ? -1 : 1) * n;
}

function cellsOf(text: string): Cell[] {
  const cells: Cell[] = [];
  let start = 0;
  for (const part of text.split(' | ')) {
    const lead = part.length - part.trimStart().length;
    const value = part.trim();
    if (value) {
      const at = start + lead;
      cells.push({ text: value, start: at, end: at + value.length, stems: stemsOf(value), number: cellNumber(value) });
    }
    start += part.length + 3;
  }
  return cells;
}

/**
 * The header cells above a row's cells: the innermost heading split at " | " with as many cells as
 * the row, or one fewer (the label column's header is often empty, and empty cells are left out of
 * a row's text), aligned to the right then.
 */
function headerOf(passage: ReaderPassage, cells: number): Row['header'] {
  for (let k = passage.headings.length - 1; k >= 0; k--) {
    const h = passage.headings[k].split(' | ').map((s) => s.trim());
    if (h.length < 2) continue;
    if (h.length === cells || h.length === cells - 1) {
      const aligned = h.length === cells ? h : ['', ...h];
      return aligned.map((text) => ({ text, stems: stemsOf(text) }));
    }
    return null;
  }
  return null;
}

function rowsOf(passages: readonly ReaderPassage[]): Row[] {
  const rows: Row[] = [];
  passages.forEach((passage, passageIndex) => {
    if (passage.nodeType !== 'row' || !passage.text.includes(' | ')) return;
    const cells = cellsOf(passage.text);
    if (cells.length < 2) return;
    rows.push({ passage, passageIndex, cells, header: headerOf(passage, cells.length), table: passage.headings.join('\n') });
  });
  // A table whose first row is a title has that title as the rows' heading; its header row is then
  // one of the rows, when retrieved: the one row of the table with as many cells, all words.
  for (const r of rows) {
    if (r.header) continue;
    const heads = rows.filter(
      (h) =>
        h !== r &&
        h.table === r.table &&
        h.cells.length === r.cells.length &&
        h.cells.every((c) => c.number === undefined && !/^\d/.test(c.text)),
    );
    if (heads.length === 1 && r.cells.some((c) => c.number !== undefined))
      r.header = heads[0].cells.map((c) => ({ text: c.text, stems: c.stems }));
  }
  return rows;
}

/** The question's terms with their weights, and the numbers it names. */
interface Asked {
  terms: Map<string, number>;
  /** The terms' weights before generic words are discounted. */
  raw: Map<string, number>;
  total: number;
  numbers: number[];
  years: string[];
}

function askedOf(q: AnalyzedQuestion): Asked {
  const terms = new Map<string, number>();
  const raw = new Map<string, number>();
  for (const t of q.terms) {
    if (!/\p{L}/u.test(t) || /^\d+$/.test(t)) continue;
    raw.set(t, q.idf.get(t) ?? 1);
    terms.set(t, (q.idf.get(t) ?? 1) * (GENERIC.has(t) ? 0.2 : 1));
  }
  const numbers = q.tokens
    .filter((t) => t.shape === 'd')
    .flatMap((t) => {
      const n = cellNumber(t.text);
      return n === undefined ? [] : [n];
    });
  const years = q.tokens.filter((t) => /^(1[89]|20)\d\d$/.test(t.text)).map((t) => t.text);
  const total = [...terms.values()].reduce((a, b) => a + b, 0) + numbers.length * 3;
  return { terms, raw, total, numbers, years };
}

/** The question's terms a set of stems names (synonyms included), and their weight. */
function matchOf(asked: Asked, stems: ReadonlySet<string>): { terms: string[]; weight: number } {
  const terms: string[] = [];
  let weight = 0;
  for (const [t, w] of asked.terms) {
    if (names(stems, t)) {
      terms.push(t);
      weight += w;
    }
  }
  return { terms, weight };
}

/**
 * The question's terms a column header names, weighted by how much of the header they account for:
 * "Handgun" answers "handgun checks" better than "Handgun Long Gun *Other" does. A header the
 * question names entirely counts its words in full even when generic ("Totals" for "in total").
 */
function columnMatch(asked: Asked, head: { stems: Set<string> }): { terms: string[]; weight: number } {
  const m = matchOf(asked, head.stems);
  if (!m.weight || !head.stems.size) return m;
  const named = [...head.stems].filter((s) => m.terms.some((t) => names(new Set([s]), t))).length;
  const share = named / head.stems.size;
  const weight = share === 1 ? m.terms.reduce((a, t) => a + (asked.raw.get(t) ?? 0), 0) : m.weight;
  return { terms: m.terms, weight: weight * (0.5 + 0.5 * share) };
}

/** Whether the value can be read as the type asked: only such a cell can answer. */
function readable(text: string, type: AnswerTypeDto): boolean {
  if (type.dataType === 'STRING') return /[\p{L}\p{N}]/u.test(text);
  // A date is not a count or an amount, though it starts with one ("2005-02-17" is not 2005 filings).
  if ((type.dataType === 'INT' || type.dataType === 'FLOAT') && DATE_LIKE.test(text.trim())) return false;
  return toDataValue(text, { ...type, multiValued: false }).value !== null;
}

interface Scored extends TableHit {
  score: number;
}

/** The row's key: the cells other than `answer` that name the question's entity or a number it names. */
function rowKey(row: Row, answer: number, asked: Asked): { weight: number; terms: Set<string>; label: string } {
  const terms = new Set<string>();
  let weight = 0;
  const labels: string[] = [];
  row.cells.forEach((cell, k) => {
    if (k === answer) return;
    if (cell.number !== undefined) {
      if (asked.numbers.includes(cell.number)) {
        // "the row where col-1 is 7": the number names the row, more surely when its column is named too.
        const column = row.header ? columnMatch(asked, row.header[k]) : { terms: [], weight: 0 };
        // A bare number names the row surely when the question names its column too, or when it is a
        // year (a period's row); "3" in another column than the "col-1" asked is likelier chance.
        const sure = column.weight > 0 || /^(?:1[89]|20)\d\d$/.test(cell.text) || !row.header?.[k].text;
        // The first column is the table's key as a rule ("Record Number"): a number there names the
        // row more surely than the same number in a derived column ("Square of the Record Number").
        weight += (sure ? 3 : 1) + column.weight + (k === 0 ? 1 : 0);
        column.terms.forEach((t) => terms.add(t));
        labels.push(`${row.header?.[k].text || 'cell'} ${cell.text}`);
      }
      return;
    }
    const m = matchOf(asked, cell.stems);
    if (m.weight) {
      weight += m.weight;
      m.terms.forEach((t) => terms.add(t));
      labels.push(cell.text);
    }
  });
  return { weight, terms, label: labels.join(', ') };
}

/** The years a text names. */
const yearsIn = (text: string) => text.match(/\b(?:1[89]|20)\d\d\b/g) ?? [];
/** The months a text names, by their first three letters ("may" is left out: it is mostly the verb). */
const monthsIn = (text: string) =>
  (text.match(/\b(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/gi) ?? [])
    .filter(
      (m) =>
        /^(?:jan|feb|apr|jun|jul|aug|sep|oct|nov|dec)$/i.test(m) ||
        /^(?:january|february|march|april|june|july|august|september|october|november|december|sept)$/i.test(m),
    )
    .map((m) => m.slice(0, 3).toLowerCase());
/** A cell holding a date: "2005-02-17", "17/02/2005", "17-02-2005". */
const DATE_LIKE = /^(?:\d{4}-\d\d-\d\d|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})\b/;

/**
 * A table whose headings name the period it covers ("NICS Checks November - 2015") holds nothing
 * for another period: "in October 2015" or "in 2014" asked of it finds no row there.
 */
function otherPeriod(headings: string, question: string, asked: Asked): boolean {
  const years = yearsIn(headings);
  if (asked.years.length && years.length && !years.some((y) => asked.years.includes(y))) return true;
  const months = monthsIn(headings);
  const askedMonths = monthsIn(question);
  return askedMonths.length > 0 && months.length > 0 && !months.some((m) => askedMonths.includes(m));
}

/** Every cell of the retrieved rows that answers by row × column, scored. */
function cellHits(rows: Row[], question: string, asked: Asked, type: AnswerTypeDto): Scored[] {
  const hits: Scored[] = [];
  for (const row of rows) {
    if (!row.header) continue;
    if (otherPeriod(row.passage.headings.slice(0, -1).join(' '), question, asked)) continue;
    const outer = stemsOf(row.passage.headings.slice(0, -1).join(' '));
    row.cells.forEach((cell, c) => {
      if (!readable(cell.text, type) || asked.numbers.includes(cell.number ?? NaN)) return;
      const head = row.header![c];
      // A column of another period than the one asked is not the answer ("2022" when 2023 is asked).
      const headYears = yearsIn(head.text);
      if (asked.years.length && headYears.length && !headYears.some((y) => asked.years.includes(y))) return;
      const column = columnMatch(asked, head);
      const periodMatch = asked.years.length > 0 && headYears.some((y) => asked.years.includes(y));
      const colWeight = column.weight + (periodMatch ? 3 : 0);
      const key = rowKey(row, c, asked);
      if (!colWeight || !key.weight) return;
      const explained = new Set([
        ...column.terms,
        ...key.terms,
        ...matchOf(asked, outer).terms,
        ...[...asked.terms.keys()].filter((t) => STRUCTURE.has(t)),
      ]);
      // The row key's column header explains words too ("record number 3").
      for (const [k, other] of row.cells.entries())
        if (k !== c && other.number === undefined) matchOf(asked, other.stems).terms.forEach((t) => explained.add(t));
      const explainedWeight =
        [...explained].reduce((a, t) => a + (asked.terms.get(t) ?? 0), 0) +
        3 *
          asked.numbers.filter(
            (n) => row.cells.some((x, k) => k !== c && x.number === n) || (periodMatch && asked.years.includes(String(n))),
          ).length;
      const coverage = asked.total ? Math.min(1, explainedWeight / asked.total) : 0;
      // A good part of the question that neither the row, its header nor its headings hold ("saltwater"
      // against a "Freshwater Ducks" column) asks about something this table does not have.
      if (coverage < 0.6) return;
      // Both must name what is asked: the weaker of the two bounds the strength.
      const strength = Math.min(1, Math.min(colWeight, key.weight) / 3) * coverage;
      hits.push({
        passage: row.passage,
        passageIndex: row.passageIndex,
        start: cell.start,
        end: cell.end,
        text: cell.text,
        strength,
        coverage,
        // Under a multi-row header a repeated column name ("Handgun" under "Pre-Pawn", "Redemption") is
        // a sub-case of the first column of that name, which holds the plain figure.
        score: (colWeight + key.weight + explainedWeight) * (row.header!.slice(0, c).some((h) => h.text === head.text) ? 0.9 : 1),
        how: `row "${key.label}", column "${head.text}"`,
      });
    });
  }
  return hits;
}

/**
 * "Which state had the largest number of permit checks?": the label of the row with the most (or
 * least) in the column the question names, compared across the retrieved rows of one table. Only
 * with several rows of the table at hand, and never a row that sums the others.
 */
function superlative(rows: Row[], question: string, asked: Asked, type: AnswerTypeDto): Scored | null {
  const most = MOST.test(question);
  if ((!most && !LEAST.test(question)) || type.dataType !== 'STRING') return null;
  const tables = new Map<string, Row[]>();
  for (const r of rows) if (r.header) tables.set(r.table, [...(tables.get(r.table) ?? []), r]);
  let best: Scored | null = null;
  for (const table of tables.values()) {
    if (table.length < 3) continue;
    const header = table[0].header!;
    const columns = header.map((h, k) => ({ k, m: matchOf(asked, h.stems) })).filter((c) => c.m.weight > 0);
    columns.sort((a, b) => b.m.weight - a.m.weight);
    const col = columns[0];
    if (!col || (columns[1] && columns[1].m.weight === col.m.weight)) continue;
    const values = table.flatMap((r) => {
      const label = r.cells.find((x) => x.number === undefined && /\p{L}/u.test(x.text));
      const v = r.cells[col.k]?.number;
      return label && v !== undefined && !SUM_ROW.test(label.text) ? [{ r, label, v }] : [];
    });
    if (values.length < 3) continue;
    values.sort((a, b) => (most ? b.v - a.v : a.v - b.v));
    if (values[0].v === values[1].v) continue;
    const top = values[0];
    // Rows not retrieved may hold a larger value: the comparison is as sure as the rows at hand are many.
    const strength = Math.min(1, values.length / 8) * Math.min(1, col.m.weight / 3);
    const coverage = Math.min(1, col.m.weight / Math.max(1, asked.total - 1));
    const hit: Scored = {
      passage: top.r.passage,
      passageIndex: top.r.passageIndex,
      start: top.label.start,
      end: top.label.end,
      text: top.label.text,
      strength,
      coverage: Math.max(coverage, 0.5),
      score: strength,
      how: `the ${most ? 'largest' : 'smallest'} "${header[col.k].text}" (${top.r.cells[col.k].text}) of ${values.length} rows`,
    };
    if (!best || hit.score > best.score) best = hit;
  }
  return best;
}

/** A "key: value" line, or a two-cell row outside a table: its key and value spans. */
function keyValueOf(passage: ReaderPassage, hasHeader: boolean): { key: string; value: Cell } | null {
  const text = passage.text;
  // A short list item under a heading that is one key ("exchanges" › "Nasdaq", as JSON and XML
  // arrays come): the heading is its key. Only in data files: in a page or a report a one-word
  // heading is a title ("Duck"), and the items under it (a menu's "What links here") are no value of it.
  const heading = passage.headings[passage.headings.length - 1];
  const dataFile = /\.(json|xml)$/i.test(passage.fileName);
  if (
    dataFile &&
    passage.nodeType === 'list_item' &&
    heading &&
    KEY_NAME.test(heading) &&
    text.trim().length <= 80 &&
    !text.includes(':')
  ) {
    const value = text.trim();
    const start = text.indexOf(value);
    return { key: heading, value: { text: value, start, end: start + value.length, stems: stemsOf(value) } };
  }
  if (passage.nodeType === 'row') {
    if (hasHeader) return null;
    const cells = cellsOf(text);
    return cells.length === 2 && cells[0].number === undefined ? { key: cells[0].text, value: cells[1] } : null;
  }
  if (text.length > 300 || text.includes('\n')) return null;
  // The key is a short name before the first colon; "Note: the fee is due" is prose, not a fact.
  const m = /^\s*([^:|]{1,60}?)\s*:\s+(\S[^\n]*?)\s*$/.exec(text);
  if (!m || m[1].split(/\s+/).length > 6 || /[.!?]$/.test(m[1])) return null;
  // "Note: the fee is due in March and is not refundable." is a sentence, not a value.
  const words = m[2].split(/\s+/).length;
  if (words > 12 || (words >= 6 && /[.!?]$/.test(m[2]))) return null;
  const start = text.indexOf(m[2], m[0].indexOf(':'));
  return { key: m[1], value: { text: m[2], start, end: start + m[2].length, stems: stemsOf(m[2]) } };
}

/**
 * Words by which a question points at the record itself ("the company's exchange"): a top-level
 * key of a record (no heading above it, or the key's own) describes the record, so they are explained.
 */
const SUBJECT = new Set(['compani', 'firm', 'issuer', 'registr', 'entiti', 'organ', 'person', 'document', 'record', 'file', 'report']);

/** A data key: one word or identifier ("exchanges", "formerNames", "date_of_birth"), not a title. */
const KEY_NAME = /^[\p{L}_][\p{L}\p{N}_.-]{0,39}$/u;

/**
 * A key as words: camelCase and snake_case split whatever the length of their parts
 * ("countryOfRegistration" → country Of Registration, "date_of_birth" → date of birth).
 */
const keyWords = (key: string) =>
  key
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_.]+/g, ' ');

function keyValueHits(passages: readonly ReaderPassage[], rows: Row[], asked: Asked, type: AnswerTypeDto, question: string): Scored[] {
  const hits: Scored[] = [];
  // "What kind of filer …": the answer names the thing asked about ("Large accelerated filer"), so
  // the word after "kind of" may recur in the value.
  const kindOf = new Set(
    [...question.matchAll(/\b(?:kind|type|sort|category|class)\s+of\s+(?:\p{L}+\s+)?(\p{L}+)/giu)].flatMap((m) => [...stemsOf(m[0])]),
  );
  passages.forEach((passage, passageIndex) => {
    const row = rows.find((r) => r.passage === passage);
    const kv = keyValueOf(passage, !!row?.header);
    if (!kv || !readable(kv.value.text, type)) return;
    const keyStems = stemsOf(keyWords(kv.key));
    if (!keyStems.size) return;
    const m = matchOf(asked, keyStems);
    if (!m.weight) return;
    // Every word of the key should be asked for: "stateOfIncorporationDescription" answers less surely than "stateOfIncorporation".
    const keyShare = m.terms.length / keyStems.size;
    if (keyShare < 0.5) return;
    const heads = matchOf(asked, stemsOf(passage.headings.join(' ')));
    const value = matchOf(asked, kv.value.stems);
    const explained = new Set([...m.terms, ...heads.terms]);
    const topLevel = passage.headings.length === 0 || (passage.headings.length === 1 && passage.headings[0] === kv.key);
    if (topLevel) for (const t of asked.terms.keys()) if (SUBJECT.has(t)) explained.add(t);
    // A value that repeats the question's words is no answer to it ("Name: Name of the company").
    if (value.terms.some((t) => !explained.has(t) && !kindOf.has(t)) && value.weight >= m.weight) return;
    const weight = [...explained].reduce((a, t) => a + (asked.terms.get(t) ?? 0), 0);
    const coverage = asked.total ? Math.min(1, weight / asked.total) : 0;
    hits.push({
      passage,
      passageIndex,
      start: kv.value.start,
      end: kv.value.end,
      text: kv.value.text,
      strength: Math.min(1, m.weight / 3) * keyShare * Math.min(1, 0.4 + coverage),
      coverage,
      score: m.weight * keyShare + heads.weight / 10,
      how: `the value of "${kv.key}"`,
    });
  });
  return hits;
}

/**
 * The best table or key/value answer, or null when none names both what is asked and where (the
 * span reader decides then). Two different values that fit equally well are no answer either.
 */
export function lookupTable(
  q: AnalyzedQuestion,
  question: string,
  passages: readonly ReaderPassage[],
  type: AnswerTypeDto,
): TableHit | null {
  if (type.dataType === 'BOOL' || type.multiValued) return null;
  const asked = askedOf(q);
  if (!asked.total) return null;
  const rows = rowsOf(passages);
  // "Which state had the most …" asks for a comparison: a single cell's row and column do not answer it.
  if (MOST.test(question) || LEAST.test(question)) return superlative(rows, question, asked, type);
  const hits = [...cellHits(rows, question, asked, type), ...keyValueHits(passages, rows, asked, type, question)];
  if (!hits.length) return null;
  hits.sort((a, b) => b.score - a.score || a.passageIndex - b.passageIndex);
  const [best] = hits;
  const rival = hits.find((h) => h.text !== best.text);
  // Two cells that fit equally well: the table does not say which one is meant.
  if (rival && rival.score >= best.score * 0.95) return null;
  return best;
}

/** Below this strength a table answer is not trusted on its own. */
const MIN_STRENGTH = 0.3;

/**
 * The question names a year, and the table it asks about (several retrieved rows whose column
 * names the measure asked) has a column of years without it: "How many ducks were there in
 * 2018?" over a table of 2019-2024. The year's row is not there, and another year's value is no
 * answer; returns why, or undefined.
 */
function missingPeriod(q: AnalyzedQuestion, rows: Row[]): string | undefined {
  const asked = askedOf(q);
  if (asked.years.length !== 1) return undefined;
  const tables = new Map<string, Row[]>();
  for (const r of rows) if (r.header) tables.set(r.table, [...(tables.get(r.table) ?? []), r]);
  for (const table of tables.values()) {
    if (table.length < 2 || yearsIn(table[0].table.split('\n').slice(0, -1).join(' ')).some((y) => asked.years.includes(y))) continue;
    const header = table[0].header!;
    const yearColumn = header.findIndex((_, k) =>
      table.every((r) => r.header!.length === header.length && /^(?:1[89]|20)\d\d$/.test(r.cells[k]?.text ?? '')),
    );
    if (yearColumn < 0) continue;
    const measure = header.some((h, k) => k !== yearColumn && matchOf(asked, h.stems).terms.some((t) => !GENERIC.has(t)));
    if (!measure) continue;
    const listed = table.map((r) => r.cells[yearColumn].text);
    if (listed.includes(asked.years[0])) continue;
    return `The table "${header.map((h) => h.text).join(' | ')}" lists ${listed.sort().join(', ')}, not ${asked.years[0]}.`;
  }
  return undefined;
}

/**
 * The reader's answer from a table or key/value hit, through the one decision (decision.ts); null
 * when there is none, or when it is too weak to stand (the span reader then reads the passages).
 */
export function answerFromTable(
  q: AnalyzedQuestion,
  question: string,
  passages: readonly ReaderPassage[],
  type: AnswerTypeDto,
  thresholds: DecisionThresholds,
): ReaderAnswer | null {
  if (type.dataType === 'BOOL' || type.multiValued) return null;
  // Only when no other passage names the year either: prose may give what the table lacks.
  const year = new RegExp(`\\b${askedOf(q).years[0] ?? 'none'}\\b`);
  const missing = passages.some((p) => year.test(p.text)) ? undefined : missingPeriod(q, rowsOf(passages));
  if (missing) return notFound(missing, 0);
  const hit = lookupTable(q, question, passages, type);
  // A weak match (a row or a column named by one common word) is left to the span reader.
  if (!hit || hit.strength < MIN_STRENGTH) return null;
  const read = toDataValue(hit.text, { ...type, multiValued: false });
  if (!read.value) return null;
  const decision = decide({ probability: 0.5 + 0.5 * hit.strength, coverage: hit.coverage, fit: 1 }, thresholds);
  if (!decision.found) return null;
  const raw =
    type.dataType === 'DATE' || type.dataType === 'ENUM' || (type.dataType === 'FLOAT' && type.decimalPrecision)
      ? formatRawValue(read.value, type)
      : hit.text;
  const where = `${hit.passage.fileName}, passage ${hit.passageIndex + 1}`;
  return {
    found: true,
    rawValue: raw,
    value: read.value,
    confidence: decision.confidence,
    explanation: `Read from ${where}, ${hit.how} (confidence ${decision.confidence.toFixed(2)}): "${hit.passage.text.length > 300 ? `${hit.passage.text.slice(0, 297)}...` : hit.passage.text}"`,
    citations: [{ passageId: hit.passage.id, start: hit.start, end: hit.end }],
  };
}

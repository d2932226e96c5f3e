import type { AnswerTypeDto, DataValue, DecimalPrecision } from '@docintel/contracts';
import { parseBoolean } from './booleans';
import { findDates, formatDate, parseDate, toIsoDateTime } from './dates';
import { matchEnum } from './enums';
import { splitList } from './lists';
import { findNumbers, parseNumber } from './numbers';

export interface TypedValue {
  /** Null when the text could not be read as the requested type; `problem` says why. */
  value: DataValue | null;
  /** The text the value was read from, trimmed. */
  rawValue: string;
  problem?: string;
}

const DECIMALS: Record<DecimalPrecision, number> = {
  ZERO_DECIMALS: 0,
  ONE_DECIMAL: 1,
  TWO_DECIMALS: 2,
  THREE_DECIMALS: 3,
  FOUR_DECIMALS: 4,
  FIVE_DECIMALS: 5,
};

/** Rounds half away from zero in decimal, so 1.005 to two decimals is 1.01 (toFixed says 1.00). */
export function roundTo(value: number, precision?: DecimalPrecision): number {
  if (!precision) return value;
  const n = DECIMALS[precision];
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${n}`))}e-${n}`);
  return value < 0 ? -rounded : rounded;
}

type Single = { ok: true; value: string | number | boolean } | { ok: false; problem: string };

/**
 * INT refuses a fractional number (3.7) instead of rounding it: a count read as 3.7 is more likely
 * the wrong number than a count to round. Whole numbers written with decimals (3.0) or with a
 * multiplier (3.5 million) are accepted.
 */
function readSingle(raw: string, type: AnswerTypeDto): Single {
  switch (type.dataType) {
    case 'STRING':
      return raw ? { ok: true, value: raw } : { ok: false, problem: 'empty' };
    case 'INT': {
      const n = parseNumber(raw);
      if (!n) return { ok: false, problem: `"${raw}" has no number` };
      if (n.fractional) return { ok: false, problem: `${n.text} is not a whole number` };
      if (!Number.isSafeInteger(n.value)) return { ok: false, problem: `${n.text} is too large for an integer` };
      return { ok: true, value: n.value };
    }
    case 'FLOAT': {
      const n = parseNumber(raw);
      return n ? { ok: true, value: roundTo(n.value, type.decimalPrecision) } : { ok: false, problem: `"${raw}" has no number` };
    }
    case 'DATE': {
      const d = parseDate(raw, type.dateFormat);
      return d ? { ok: true, value: toIsoDateTime(d) } : { ok: false, problem: `"${raw}" has no date` };
    }
    case 'BOOL': {
      const b = parseBoolean(raw);
      return b === null ? { ok: false, problem: `"${raw}" is not yes or no` } : { ok: true, value: b };
    }
    case 'ENUM': {
      const values = type.enumValues ?? [];
      if (!values.length) return { ok: false, problem: 'the answer type lists no enumValues' };
      const m = matchEnum(raw, values, type.rejectedEnumValues);
      return m ? { ok: true, value: m.value } : { ok: false, problem: `"${raw}" is none of the allowed values` };
    }
  }
}

function singleValue(v: string | number | boolean, type: AnswerTypeDto): DataValue {
  switch (type.dataType) {
    case 'INT':
      return { longValue: v as number };
    case 'FLOAT':
      return { doubleValue: v as number };
    case 'DATE':
      return { dateValue: v as string };
    case 'BOOL':
      return { boolValue: v as boolean };
    case 'STRING':
    case 'ENUM':
      return { strValue: v as string };
  }
}

function listValue(vs: (string | number | boolean)[], type: AnswerTypeDto): DataValue {
  switch (type.dataType) {
    case 'INT':
      return { longListValue: vs as number[] };
    case 'FLOAT':
      return { doubleListValue: vs as number[] };
    case 'DATE':
      return { dateListValue: vs as string[] };
    case 'BOOL':
      return { boolListValue: vs as boolean[] };
    case 'STRING':
    case 'ENUM':
      return { strListValue: vs as string[] };
  }
}

/** Items of a multi-valued answer: numbers and dates are found in the text (their commas are not separators), the rest split as a list. */
function listItems(raw: string, type: AnswerTypeDto): string[] {
  if (type.dataType === 'DATE') return findDates(raw, type.dateFormat).map((d) => d.text);
  if (type.dataType === 'INT' || type.dataType === 'FLOAT') return findNumbers(raw).map((n) => n.text);
  return splitList(raw);
}

/** Reads an answer span as the requested answerType. */
export function toDataValue(raw: string, type: AnswerTypeDto): TypedValue {
  const rawValue = raw.trim();
  if (!type.multiValued) {
    const r = readSingle(rawValue, type);
    return r.ok ? { value: singleValue(r.value, type), rawValue } : { value: null, rawValue, problem: r.problem };
  }
  const read = listItems(rawValue, type).map((item) => readSingle(item, type));
  const values = read.flatMap((r) => (r.ok ? [r.value] : []));
  const problems = read.flatMap((r) => (r.ok ? [] : [r.problem]));
  if (!values.length) return { value: null, rawValue, problem: problems.join('; ') || 'no values' };
  // The same value written twice in a list ("EUR, eur") is one value.
  const unique = values.filter((v, i) => values.indexOf(v) === i);
  return { value: listValue(unique, type), rawValue, problem: problems.length ? problems.join('; ') : undefined };
}

function formatOne(v: string | number | boolean, type: AnswerTypeDto): string {
  switch (type.dataType) {
    case 'DATE': {
      const d = new Date(v as string);
      return formatDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, type.dateFormat);
    }
    case 'FLOAT':
      return type.decimalPrecision ? roundTo(v as number, type.decimalPrecision).toFixed(DECIMALS[type.decimalPrecision]) : String(v);
    case 'BOOL':
      return v ? 'Yes' : 'No';
    case 'INT':
    case 'STRING':
    case 'ENUM':
      return String(v);
  }
}

/**
 * The value written for people: DATE per dateFormat (ISO 2024-03-01, EUR 01/03/2024, US
 * 03/01/2024), FLOAT with exactly decimalPrecision decimals, BOOL as Yes/No, lists joined with "; ".
 */
export function formatRawValue(value: DataValue, type: AnswerTypeDto): string {
  const list = value.strListValue ?? value.longListValue ?? value.doubleListValue ?? value.dateListValue ?? value.boolListValue;
  if (list) return (list as (string | number | boolean)[]).map((v) => formatOne(v, type)).join('; ');
  const single = value.strValue ?? value.longValue ?? value.doubleValue ?? value.dateValue ?? value.boolValue;
  return single === undefined ? '' : formatOne(single, type);
}

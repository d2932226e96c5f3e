import type { AnswerTypeDto, DataValue } from '@docintel/contracts';
import { formatRawValue, toDataValue } from '../typed';
import type { LlmScalar } from './answer-schema';

export interface LlmTypedValue {
  /** Null when no value could be read; `problems` say why. */
  value: DataValue | null;
  /** The value written for people (formatRawValue): dates per dateFormat, lists joined with "; ". */
  rawValue: string;
  problems: string[];
}

const LIST_FIELDS: Record<string, keyof DataValue> = {
  strValue: 'strListValue',
  longValue: 'longListValue',
  doubleValue: 'doubleListValue',
  dateValue: 'dateListValue',
  boolValue: 'boolListValue',
};

/** A JSON value written as text the typed parsers read back exactly: no exponent, no grouping. */
function asText(v: LlmScalar): string {
  if (typeof v === 'number') return v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  return String(v);
}

/**
 * The model's value, already typed by the schema, read through the same parsers the other
 * engines use (toDataValue), item by item: rounding, enum matching and the ISO date-time form
 * are then the same whichever engine answered. The model writes dates as YYYY-MM-DD, so they are
 * read as ISO whatever dateFormat asks for; dateFormat shapes only rawValue.
 */
export function typedValueOf(value: LlmScalar | LlmScalar[] | null, answerType: AnswerTypeDto): LlmTypedValue {
  const items = value === null ? [] : Array.isArray(value) ? value : [value];
  const single: AnswerTypeDto = { ...answerType, multiValued: false, ...(answerType.dataType === 'DATE' ? { dateFormat: 'ISO' } : {}) };
  const read = items.map((item) => toDataValue(asText(item), single));
  const problems = read.flatMap((r) => (r.value ? [] : [r.problem ?? `"${r.rawValue}" could not be read as ${answerType.dataType}`]));
  const values = read.flatMap((r) => (r.value ? [r.value] : []));
  if (!values.length) return { value: null, rawValue: '', problems: problems.length ? problems : ['the value is empty'] };

  let typed: DataValue;
  if (answerType.multiValued) {
    const [field, listField] = Object.entries(LIST_FIELDS).find(([f]) => values[0][f as keyof DataValue] !== undefined) ?? [];
    const list = values.map((v) => v[field as keyof DataValue]);
    // The same value given twice is one value.
    typed = { [listField as string]: list.filter((v, i) => list.indexOf(v) === i) } as DataValue;
  } else {
    typed = values[0];
    if (items.length > 1) problems.push(`${items.length} values were given for a single-valued answer; the first was kept`);
  }
  return { value: typed, rawValue: formatRawValue(typed, answerType), problems };
}

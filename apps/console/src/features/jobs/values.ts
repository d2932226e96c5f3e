/** How job answers are shown: typed values, progress, results grouped for tables. Pure functions. */
import type { JobStatus, Schemas } from '@docintel/api-client';

export type DataValue = Schemas['DataValueDto'];
export type AnswerType = Schemas['AnswerTypeDto'];
export type DataType = AnswerType['dataType'];
export type JobProgress = Schemas['JobProgressDto'];
export type MetaResult = Schemas['MetaResultDto'];
export type EntityExtraction = Schemas['EntityExtractionDto'];
export type EntityColumn = Schemas['EntityColumnDto'];

export const DATA_TYPES: ReadonlyArray<{ value: DataType; label: string }> = [
  { value: 'STRING', label: 'Text' },
  { value: 'INT', label: 'Whole number' },
  { value: 'FLOAT', label: 'Number' },
  { value: 'DATE', label: 'Date' },
  { value: 'BOOL', label: 'Yes / no' },
  { value: 'ENUM', label: 'One of a list' },
];

/** A typed answer as shown: the kind of value and its values as text (several for a list). */
export interface TypedValue {
  kind: 'text' | 'number' | 'date' | 'boolean';
  list: boolean;
  values: string[];
}

const numberText = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
/** An ISO 8601 date(-time) as its date when the time is midnight UTC, else as given. */
const dateText = (iso: string): string => (/^\d{4}-\d{2}-\d{2}(T00:00(:00(\.0+)?)?(Z|[+-]00:?00)?)?$/.test(iso) ? iso.slice(0, 10) : iso);
const boolText = (b: boolean): string => (b ? 'Yes' : 'No');

/** The typed value of a DataValue, or null when it holds none (not found). */
export function typedValue(value: DataValue | null | undefined): TypedValue | null {
  if (!value) return null;
  if (value.strValue !== undefined) return { kind: 'text', list: false, values: [value.strValue] };
  if (value.longValue !== undefined) return { kind: 'number', list: false, values: [numberText(value.longValue)] };
  if (value.doubleValue !== undefined) return { kind: 'number', list: false, values: [numberText(value.doubleValue)] };
  if (value.dateValue !== undefined) return { kind: 'date', list: false, values: [dateText(value.dateValue)] };
  if (value.boolValue !== undefined) return { kind: 'boolean', list: false, values: [boolText(value.boolValue)] };
  if (value.strListValue) return { kind: 'text', list: true, values: value.strListValue };
  if (value.longListValue) return { kind: 'number', list: true, values: value.longListValue.map(numberText) };
  if (value.doubleListValue) return { kind: 'number', list: true, values: value.doubleListValue.map(numberText) };
  if (value.dateListValue) return { kind: 'date', list: true, values: value.dateListValue.map(dateText) };
  if (value.boolListValue) return { kind: 'boolean', list: true, values: value.boolListValue.map(boolText) };
  return null;
}

/** "Number", "List of dates"…: the answer type in words. */
export function typeLabel(type: AnswerType | undefined): string {
  const dataType = type?.dataType ?? 'STRING';
  const label = DATA_TYPES.find((t) => t.value === dataType)?.label ?? dataType;
  return type?.multiValued ? `List (${label.toLowerCase()})` : label;
}

/** A multi-dimensional cell value (typed by its column: number, boolean or text) as text; null when empty. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return boolText(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export const isTerminal = (status: JobStatus | undefined): boolean =>
  status === 'SUCCESS' || status === 'COMPLETED' || status === 'FAILED' || status === 'ABORTED';

/**
 * How long a job waited in the queue and how long it has run, in seconds. A job's executionTime is
 * from its start; the rest of the time since it was created it was queued. A terminal job is timed
 * by the server's clock alone (createdTime to its last change); one still going by `now`.
 */
export function jobTimes(
  job: { status: JobStatus; createdTime: number; modifiedTime?: number; executionTime?: number; executionTimeMs?: number },
  now: number,
): { queuedS: number; runningS: number } {
  const runningS = job.executionTime ?? (job.executionTimeMs !== undefined ? job.executionTimeMs / 1000 : 0);
  const end = isTerminal(job.status) ? (job.modifiedTime ?? now) : now;
  const totalS = Math.max(0, (end - job.createdTime) / 1000);
  return { queuedS: Math.max(0, totalS - runningS), runningS };
}

/** "0.4 s", "52 s", "3 min 5 s". */
export function formatSeconds(s: number): string {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/** Progress as a percentage of units over and a sentence, or null when the job reports none. */
export function progressOf(progress: JobProgress | undefined): { percent: number; text: string } | null {
  if (!progress || progress.total <= 0) return null;
  const over = progress.done + progress.failed;
  const percent = Math.min(100, Math.round((over / progress.total) * 100));
  const parts = [`${over} of ${progress.total} done`];
  if (progress.running) parts.push(`${progress.running} running`);
  if (progress.failed) parts.push(`${progress.failed} failed`);
  return { percent, text: parts.join(', ') };
}

/** Extraction results grouped by file, files and metas in the order the job gave them. */
export function resultsByFile(results: readonly MetaResult[]): Array<{ fileId: string; results: MetaResult[] }> {
  const groups = new Map<string, MetaResult[]>();
  for (const r of results) {
    const list = groups.get(r.fileId);
    if (list) list.push(r);
    else groups.set(r.fileId, [r]);
  }
  return [...groups].map(([fileId, list]) => ({ fileId, results: list }));
}

/** A column key from its label: lower case words joined by `_`, unique among `taken`. */
export function columnKey(label: string, taken: readonly string[] = []): string {
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'column';
  let key = base;
  for (let i = 2; taken.includes(key); i++) key = `${base}_${i}`;
  return key;
}

/** "a, b ,c" -> ["a", "b", "c"]: values typed in one field. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The rows of a multi-dimensional extraction as text cells in the schema's column order. */
export function entityRows(
  extraction: EntityExtraction,
): Array<{ cells: Array<{ key: string; text: string | null; cell?: Schemas['EntityCellDto'] }> }> {
  const keys = extraction.schema.columns.map((c) => c.key);
  return extraction.rows.map((row) => {
    const byKey = new Map(row.cells.map((c) => [c.columnKey, c]));
    return { cells: keys.map((key) => ({ key, text: cellText(byKey.get(key)?.value), cell: byKey.get(key) })) };
  });
}

/**
 * Results as files to download: CSV (RFC 4180, for spreadsheets) and JSON (as the API gave them).
 * Pure except `download`.
 */
import type { DataValue, EntityExtraction, MetaResult } from './values';

/**
 * A CSV field: quoted when it holds a comma, quote or line break. A text that a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe: an extracted
 * value is the document's text, and a document must not be able to put a formula into Excel.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A typed value as plain data for a spreadsheet: numbers unformatted, lists joined by "; ". */
export function plainValue(value: DataValue | null | undefined): string | number | boolean | null {
  if (!value) return null;
  const one = value.strValue ?? value.longValue ?? value.doubleValue ?? value.dateValue ?? value.boolValue;
  if (one !== undefined) return one;
  const list = value.strListValue ?? value.longListValue ?? value.doubleListValue ?? value.dateListValue ?? value.boolListValue;
  return list ? list.join('; ') : null;
}

/** An extraction's values, one row per file and field. */
export function extractionCsv(results: readonly MetaResult[], fileName: (fileId: string) => string): string {
  return toCsv(
    ['file', 'field', 'value', 'found', 'confidence', 'explanation'],
    results.map((r) => [fileName(r.fileId), r.meta, r.found ? plainValue(r.answer) : null, r.found, r.confidence, r.explanation]),
  );
}

/** A table extraction's rows under its column labels. */
export function tableCsv(extraction: EntityExtraction): string {
  const columns = extraction.schema.columns;
  return toCsv(
    columns.map((c) => c.label),
    extraction.rows.map((row) => {
      const byKey = new Map(row.cells.map((c) => [c.columnKey, c.value]));
      return columns.map((c) => {
        const v = byKey.get(c.key);
        return v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
      });
    }),
  );
}

/** A safe file name from a job's name. */
export function exportName(name: string | undefined, jobId: string, extension: 'csv' | 'json'): string {
  const base =
    (name ?? '')
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || `job-${jobId.slice(0, 8)}`;
  return `${base}.${extension}`;
}

/** Hands the browser a file to save. */
export function download(fileName: string, body: string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

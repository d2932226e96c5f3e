import { analyze } from '@docintel/retrieval';
import { parseBoolean } from '../typed/booleans';
import { labelSimilarity, matchEnum } from '../typed/enums';
import { parseNumber } from '../typed/numbers';
import { expandRow, type ShapedTable } from './table-shape';
import type { EntityColumnSpec } from './types';

/** A schema column read from a table column, and how sure the match is (0..1). */
export interface ColumnMatch {
  columnKey: string;
  tableColumn: number;
  score: number;
  why: string;
}

/** Below this a header is not taken for a schema column. */
export const MIN_COLUMN_SCORE = 0.5;

/** "Dose (mg)" → { label: "Dose", unit: "mg" }; "Price [EUR]" and "Weight, kg" alike. */
export function splitHeaderUnit(header: string): { label: string; unit?: string } {
  const bracketed = /^(.*?)\s*[([]\s*([^()[\]]{1,12}?)\s*[)\]]\s*$/.exec(header);
  if (bracketed && bracketed[1].trim()) return { label: bracketed[1].trim(), unit: bracketed[2] };
  const comma = /^(.*\S)\s*,\s*(%|[a-zA-Zµ°/²³]{1,6})$/.exec(header);
  if (comma) return { label: comma[1], unit: comma[2] };
  return { label: header.trim() };
}

const words = (text: string) => new Set(analyze(text));

/** Dice overlap of stemmed content words. */
function wordOverlap(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return (2 * common) / (a.size + b.size);
}

/** "arm_name" → "arm name", "doseMg" → "dose mg". */
const humanise = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');

/** Share (0..1) of the column's filled body cells that read as the schema column's type or allowed values. */
export function typeFit(column: EntityColumnSpec, values: string[]): number {
  const filled = values.map((v) => v.trim()).filter(Boolean);
  if (!filled.length) return 0.5;
  let fit: (v: string) => boolean;
  if (column.allowedValues?.length) {
    const allowed = column.allowedValues;
    fit = (v) => matchEnum(v, allowed) !== null;
  } else if (column.type === 'INT' || column.type === 'FLOAT') {
    fit = (v) => parseNumber(v) !== null;
  } else if (column.type === 'BOOL') {
    fit = (v) => parseBoolean(v) !== null;
  } else {
    return 0.5; // any text is a string
  }
  return filled.filter(fit).length / filled.length;
}

/**
 * How well a table column stands for a schema column: its header against the column's label, key
 * and description (the best of label similarity and stemmed word overlap; description words count
 * less), weighed by how many of its cells read as the column's type, or as its allowed values (a
 * column whose cells are the allowed values matches even under an unrelated header).
 */
export function columnScore(column: EntityColumnSpec, header: string, values: string[]): { score: number; why: string } {
  const { label } = splitHeaderUnit(header);
  const headerWords = words(label);
  const byLabel = Math.max(
    labelSimilarity(label, column.label),
    labelSimilarity(label, humanise(column.key)),
    wordOverlap(headerWords, words(column.label)),
  );
  const byDescription = column.description ? 0.8 * Math.min(1, 2 * wordOverlap(headerWords, words(column.description))) : 0;
  const named = label ? Math.max(byLabel, byDescription) : 0;
  const fit = typeFit(column, values);
  let score = named * (0.6 + 0.4 * fit);
  let why = `header "${header}" ~ "${column.label}" (${named.toFixed(2)}), ${Math.round(fit * 100)}% of its cells fit ${column.allowedValues?.length ? 'the allowed values' : column.type}`;
  if (column.allowedValues?.length && fit >= 0.6 && 0.55 + 0.4 * fit > score) {
    score = 0.55 + 0.4 * fit;
    why = `${Math.round(fit * 100)}% of its cells are allowed values of "${column.label}"`;
  }
  return { score, why };
}

/**
 * Assigns schema columns to table columns, best pairs first, each used once. UNIT columns are left
 * to the caller when no table column is headed as a unit (units then come from the values).
 */
export function matchColumns(columns: EntityColumnSpec[], shaped: ShapedTable): ColumnMatch[] {
  const body = shaped.table.rows.slice(shaped.bodyStart).map((r) => expandRow(r, shaped.width));
  const candidates: ColumnMatch[] = [];
  for (const column of columns) {
    for (let col = 0; col < shaped.width; col++) {
      const values = body.map((r) => r[col]?.text ?? '');
      const { score, why } = columnScore(column, shaped.headers[col], values);
      if (score >= MIN_COLUMN_SCORE) candidates.push({ columnKey: column.key, tableColumn: col, score, why });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.tableColumn - b.tableColumn);
  const usedKeys = new Set<string>();
  const usedColumns = new Set<number>();
  const out: ColumnMatch[] = [];
  for (const c of candidates) {
    if (usedKeys.has(c.columnKey) || usedColumns.has(c.tableColumn)) continue;
    usedKeys.add(c.columnKey);
    usedColumns.add(c.tableColumn);
    out.push(c);
  }
  return out;
}

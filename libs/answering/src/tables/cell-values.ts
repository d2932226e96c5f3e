import { parseBoolean } from '../typed/booleans';
import { matchEnum } from '../typed/enums';
import { parseNumber } from '../typed/numbers';
import type { EntityColumnSpec, EntityValue } from './types';

/** A cell's text read as its column's type, the unit written with it, and what was done. */
export interface TypedCell {
  value: EntityValue | null;
  unit?: string;
  note: string;
}

/**
 * Reads a cell as the column says: INT and FLOAT take the first number ("1,250", "4.50 EUR",
 * "12.5%"), with its unit, currency or percent sign as the unit; INT rounds a fraction and says so;
 * BOOL takes yes/no words and check marks; STRING keeps the text. With allowedValues the closest
 * allowed value is taken, and a text close to none is left empty with the reason.
 */
export function typeCell(column: EntityColumnSpec, text: string, headerUnit?: string): TypedCell {
  const raw = text.replace(/\s+/g, ' ').trim();
  if (!raw) return { value: null, note: 'empty cell' };
  if (column.allowedValues?.length) {
    const match = matchEnum(raw, column.allowedValues);
    if (!match) return { value: null, note: `"${raw}" is none of the allowed values (${column.allowedValues.join(', ')})` };
    return { value: match.value, note: match.value === raw ? `"${raw}"` : `"${raw}" read as the allowed value "${match.value}"` };
  }
  switch (column.type) {
    case 'INT':
    case 'FLOAT': {
      const n = parseNumber(raw);
      if (!n) return { value: null, note: `"${raw}" holds no number` };
      const unit = n.percent ? '%' : (n.currency ?? n.unit ?? headerUnit);
      if (column.type === 'INT' && !Number.isInteger(n.value)) {
        return { value: Math.round(n.value), unit, note: `"${raw}" rounded to a whole number` };
      }
      return { value: n.value, unit, note: `"${raw}"` };
    }
    case 'BOOL': {
      const b = parseBoolean(raw);
      return b === null ? { value: null, note: `"${raw}" is not a yes/no value` } : { value: b, note: `"${raw}"` };
    }
    default:
      return { value: raw, note: `"${raw}"` };
  }
}

/** Values compared for merging and conflicts: numbers as numbers, text folded. */
export function sameValue(a: EntityValue, b: EntityValue): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  return a === b;
}

import { UsageError } from './usage';

/**
 * `--expires-in-days`: digits only, from 1 to `max` (so `1e3`, `0x10`, ` 7` or `90d` are refused
 * rather than read as some number), named as the option the user typed.
 */
export function expiresInDays(value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const days = /^[0-9]{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= max))
    throw new UsageError(`--expires-in-days must be a whole number of days from 1 to ${max} (got "${value}")`);
  return days;
}

/**
 * A time of `token list` (milliseconds since 1970): ISO 8601, `-` when there is none, and the number
 * itself when it is past the dates JavaScript can print (a row written before expiries were bounded),
 * so that one such row never stops the list of every token.
 */
export function listedTime(time: number | null): string {
  if (!time) return '-';
  const date = new Date(time);
  return Number.isFinite(date.getTime()) ? date.toISOString() : String(time);
}

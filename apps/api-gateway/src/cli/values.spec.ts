import { UsageError } from './usage';
import { expiresInDays, listedTime } from './values';

describe('--expires-in-days', () => {
  it('takes a whole number of days from 1 to the maximum; absent is no expiry', () => {
    expect(expiresInDays(undefined, 3650)).toBeUndefined();
    expect(expiresInDays('1', 3650)).toBe(1);
    expect(expiresInDays('90', 3650)).toBe(90);
    expect(expiresInDays('3650', 3650)).toBe(3650);
  });

  it.each(['0', '3651', '1000000000', '1.5', '-1', '1e3', '0x10', ' 7', '90d', '', 'soon'])(
    'refuses %p, naming the option and its range',
    (value) => {
      expect(() => expiresInDays(value, 3650)).toThrow(UsageError);
      expect(() => expiresInDays(value, 3650)).toThrow(`--expires-in-days must be a whole number of days from 1 to 3650 (got "${value}")`);
    },
  );
});

describe('the times token list prints', () => {
  it('prints ISO 8601, or - when there is none', () => {
    expect(listedTime(Date.UTC(2026, 11, 6, 22, 0, 0))).toBe('2026-12-06T22:00:00.000Z');
    expect(listedTime(null)).toBe('-');
  });

  it('prints a time past the last printable date as its number instead of throwing "Invalid time value"', () => {
    // 10^9 days from now: what `--expires-in-days 1000000000` once wrote, before the bound.
    const far = Date.now() + 1e9 * 86_400_000;
    expect(() => new Date(far).toISOString()).toThrow(RangeError);
    expect(listedTime(far)).toBe(String(far));
  });
});

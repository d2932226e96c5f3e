import { parseRange } from './byte-range';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['BYTES= 5 - 6', 100, { start: 5, end: 6 }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([
    ['bytes=100-', 100],
    ['bytes=200-300', 100],
    ['bytes=-0', 100],
    ['bytes=0-', 0],
  ])('%s of %i bytes is unsatisfiable', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-3', 'bytes=-', 'bytes=a-b'])('%p means the whole file', (header) => {
    expect(parseRange(header, 100)).toBeNull();
  });
});

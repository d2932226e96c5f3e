import { splitList } from './lists';

describe('splitList', () => {
  it.each([
    ['A, B and C', ['A', 'B', 'C']],
    ['Paris; London; New York', ['Paris', 'London', 'New York']],
    ['- alpha\n- beta\n• gamma', ['alpha', 'beta', 'gamma']],
    ['1. first\n2) second', ['first', 'second']],
    ['red or green', ['red', 'green']],
    ['single', ['single']],
  ])('%j', (raw, expected) => {
    expect(splitList(raw)).toEqual(expected);
  });
});

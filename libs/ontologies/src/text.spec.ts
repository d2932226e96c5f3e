import { splitBlocks, splitSentences, truncateAtSentence } from './text';

describe('text', () => {
  it('splits blocks on blank lines and keeps offsets', () => {
    expect(splitBlocks('one\n\n  two\nlines\n \nthree')).toEqual([
      { text: 'one', offset: 0 },
      { text: 'two\nlines', offset: 7 },
      { text: 'three', offset: 19 },
    ]);
  });

  it('does not end sentences at initials or abbreviations', () => {
    expect(splitSentences('J. Smith et al. wrote it. See Fig. 2 for details. Done!')).toEqual([
      'J. Smith et al. wrote it.',
      'See Fig. 2 for details.',
      'Done!',
    ]);
  });

  it('truncates at a sentence boundary, or at a word with an ellipsis', () => {
    expect(truncateAtSentence('First sentence here. Second sentence is longer.', 30)).toBe('First sentence here.');
    expect(truncateAtSentence('one two three four five six seven', 20)).toBe('one two three four…');
  });
});

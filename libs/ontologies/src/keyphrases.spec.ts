import { extractKeyphrases, pageRank, phraseScore } from './keyphrases';
import { analyse } from './nlp';
import { PROSE } from './testing/factories';

describe('keyphrases', () => {
  it('ranks the phrase the text is about first, with a 0..1 score and an explanation', () => {
    const phrases = extractKeyphrases(analyse(PROSE).sentences, 10);
    expect(phrases[0]).toMatchObject({ text: 'table structure recognition', score: 1, occurrences: 4 });
    expect(phrases[0].explanation).toMatch(/^TextRank keyphrase, score 1\.00 \(rank 1\), 4 occurrences, first at offset 0$/);
    for (const p of phrases) expect(p.score).toBeGreaterThan(0);
    expect(phrases.map((p) => p.score)).toEqual([...phrases.map((p) => p.score)].sort((a, b) => b - a));
  });

  it('leaves out function words and phrases inside a better one', () => {
    const texts = extractKeyphrases(analyse(PROSE).sentences, 15).map((p) => p.text);
    expect(texts).not.toContain('it');
    expect(texts).not.toContain('structure recognition');
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('honours the cap and gives nothing for text without nouns', () => {
    expect(extractKeyphrases(analyse(PROSE).sentences, 3)).toHaveLength(3);
    expect(extractKeyphrases(analyse('It is. They were.').sentences, 5)).toEqual([]);
  });

  it('PageRank favours the hub of a star graph', () => {
    const g = new Map<string, Map<string, number>>([
      [
        'hub',
        new Map([
          ['a', 1],
          ['b', 1],
          ['c', 1],
        ]),
      ],
      ['a', new Map([['hub', 1]])],
      ['b', new Map([['hub', 1]])],
      ['c', new Map([['hub', 1]])],
    ]);
    const scores = pageRank(g);
    expect(scores.get('hub')).toBeGreaterThan(scores.get('a') as number);
  });

  it('scores repeated phrases above one-off phrases of the same words', () => {
    expect(phraseScore([0.1, 0.1], 3)).toBeGreaterThan(phraseScore([0.1, 0.1], 1));
  });
});

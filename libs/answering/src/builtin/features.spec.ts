import type { ReaderPassage } from '../reader';
import { sentencePolarity } from './bool-answer';
import { candidatesFor } from './candidates';
import { idfOf } from './idf';
import { buildLattice, spanFeatures } from './lattice';
import { analyzeQuestion } from './question';
import { splitSentences } from './sentences';
import { tokenize } from './tokens';

const ask = (question: string) => analyzeQuestion({ question });
const passage = (text: string): ReaderPassage => ({
  id: 'p1',
  fileId: 'f',
  fileName: 'f.txt',
  nodeType: 'paragraph',
  headings: [],
  score: 1,
  text,
});

describe('tokenize', () => {
  it('reads a CamelCase name as its words, with their offsets', () => {
    const text = 'EarningsPerShareDiluted | 6.11';
    const words = tokenize(text).map((t) => [t.text, text.slice(t.start, t.end)]);
    expect(words.slice(0, 4)).toEqual([
      ['Earnings', 'Earnings'],
      ['Per', 'Per'],
      ['Share', 'Share'],
      ['Diluted', 'Diluted'],
    ]);
  });

  it('keeps names whose parts are too short to be words', () => {
    expect(tokenize('McDonald iPhone NASA').map((t) => t.text)).toEqual(['McDonald', 'iPhone', 'NASA']);
  });
});

describe('idfOf', () => {
  it('rates common words below rare ones', () => {
    expect(idfOf('the')).toBeLessThan(idfOf('year'));
    expect(idfOf('year')).toBeLessThan(idfOf('zzyzx'));
  });
});

describe('analyzeQuestion', () => {
  it('finds the verb asked about, the distance of each term to the wh-word and the bigrams', () => {
    const q = ask('What did Nikola Tesla invent in 1887?');
    expect(q.type).toBe('what');
    expect(q.verb).toBe('invent');
    expect(q.whDistance.get('nikola')).toBe(2);
    expect(q.whDistance.get('invent')).toBe(4);
    expect(q.bigrams.has('tesla invent')).toBe(true);
    expect(q.idfTotal).toBeGreaterThan(0);
  });

  it('keeps the wh-word with the word after it', () => {
    expect(ask('Who replaced John Fox?').whPhrase).toBe('who replaced');
    expect(ask('How many yards did he gain?').whPhrase).toBe('many yards');
    expect(ask('Tesla invented the motor.').whPhrase).toBe('none');
  });
});

describe('span features', () => {
  const tesla = passage('The river is long. In 1887 Tesla invented the induction motor in New York.');

  it('weigh the question words around a span by rarity and see question bigrams next to it', () => {
    const q = ask('What did Tesla invent in 1887?');
    const [best] = buildLattice(q, [tesla]);
    expect(tesla.text.slice(best.start, best.end)).toMatch(/^In 1887 Tesla/);
    expect(best.sentenceFeatures).toEqual(expect.arrayContaining(['verb=1', 'swr=0']));
    const at = (word: string) => best.tokens.findIndex((t) => t.text === word);
    const f = spanFeatures(best, at('induction'), at('motor'), q);
    // Every question term lies within ten tokens left of "induction motor", none to its right.
    expect(f).toEqual(expect.arrayContaining(['ww=5', 'wwlr=30']));
    expect(f).toContain('sig=x|what');
    expect(f.some((x) => x.startsWith('qd='))).toBe(true);
  });

  it('see what a span holds and the question words on both of its sides', () => {
    const q = ask('Who landed in Valona with Robert?');
    const [view] = buildLattice(q, [passage('Robert and his son Bohemond landed in Valona in 1081.')]);
    const at = (word: string) => view.tokens.findIndex((t) => t.text === word);
    const son = spanFeatures(view, at('son'), at('Bohemond'), q);
    expect(son).toEqual(expect.arrayContaining(['verbish=0|who', 'stops=0|who', 'sig=x-Xx|who landed']));
    // "son Bohemond" lies between "landed" (right, the nearer) and "Robert" (left): both paths are seen.
    expect(son.some((x) => x.startsWith('pth=R:|'))).toBe(true);
    expect(son).toContain('pth2=L:and his|who');
    const landed = spanFeatures(view, at('Bohemond'), at('landed'), q);
    expect(landed).toContain('verbish=1|who');
    // The boundary word pairs and the question's verb with the words beside the span.
    expect(view.startFeatures[at('Bohemond')]).toEqual(expect.arrayContaining(['sb=son_Cap', 'slV=land|son']));
  });
});

describe('sentencePolarity', () => {
  const polarity = (sentence: string, question: string) => sentencePolarity(sentence, ask(question));

  it('denies what "except" leaves out', () => {
    expect(polarity('Ducks are found on every continent except Antarctica.', 'Are ducks found in Antarctica?')).toBe(false);
    expect(polarity('Ducks are found on every continent except Antarctica.', 'Are ducks found in Europe?')).toBe(true);
  });

  it('flips a clause that the next one calls false', () => {
    expect(
      polarity('A legend claims that duck quacks do not echo; however, this has been proven to be false.', 'Do duck quacks echo?'),
    ).toBe(true);
    expect(polarity('Duck quacks do not echo.', 'Do duck quacks echo?')).toBe(false);
  });

  it('reads an elliptical negative clause with the words of the clause before it', () => {
    const s = 'Some duck species, mainly those breeding in the north, are migratory; those in the tropics are generally not.';
    expect(polarity(s, 'Are duck species in the tropics migratory?')).toBe(false);
    expect(polarity('Some duck species are migratory.', 'Are duck species migratory?')).toBe(true);
  });
});

describe('splitSentences and capitals', () => {
  it('does not end a sentence at a dotted initialism', () => {
    const text = 'He was elected to the Norwich City F.C. Hall of Fame in 2002. He left.';
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'He was elected to the Norwich City F.C. Hall of Fame in 2002.',
      'He left.',
    ]);
  });

  it('reads a sentence in capitals as title case', () => {
    const q = ask('What date is the prospectus subject to completion dated?');
    const [view] = buildLattice(q, [{ ...passage('SUBJECT TO COMPLETION, DATED MAY 25, 1995'), nodeType: 'heading' }]);
    // "MAY" reads as the modal verb, a function word: the date is found in the text all the same.
    expect(view.tokens.map((t) => t.shape)).toEqual(['Xx', 'x', 'Xx', 'p', 'Xx', 'x', 'd', 'p', 'd']);
  });
});

describe('typed candidates', () => {
  it('prefer an amount of money when the question asks about one', () => {
    const q = ask('What fee did the club pay?');
    const [view] = buildLattice(q, [passage('The club paid a fee of £275,000 for the forward, who stayed three seasons.')]);
    const numbers = candidatesFor(view, { dataType: 'FLOAT', multiValued: false }, q);
    expect(numbers.map((c) => c.extra.includes('money=asked'))).toEqual([true, false]);
  });
});

import { cleanEntityText, groupEntities } from './entities';
import { analyse } from './nlp';

describe('entities', () => {
  it('recognises people, organisations and places, most mentioned first', () => {
    const text =
      'Barack Obama met engineers at Microsoft Corporation in Seattle. Later Barack Obama flew to Paris. ' +
      'Microsoft Corporation opened an office in Paris, and Angela Merkel visited Paris too.';
    const entities = groupEntities(analyse(text).mentions, 10);
    const byName = Object.fromEntries(entities.map((e) => [e.text, e]));
    expect(byName['Barack Obama']).toMatchObject({ type: 'PERSON', occurrences: 2, firstOffset: 0 });
    expect(byName['Microsoft Corporation']).toMatchObject({ type: 'ORGANIZATION', occurrences: 2 });
    expect(byName['Paris']).toMatchObject({ type: 'PLACE', occurrences: 3 });
    expect(entities[0].text).toBe('Paris');
    expect(byName['Angela Merkel'].explanation).toMatch(
      /^named entity \(person\) recognised by compromise, 1 occurrence, first at offset \d+$/,
    );
  });

  it('cleans punctuation, honorifics and possessives', () => {
    expect(cleanEntityText('Dr. Jane Smith,')).toBe('Jane Smith');
    expect(cleanEntityText("Google's")).toBe('Google');
    expect(cleanEntityText('Otsuka Chemical Co., Ltd.)')).toBe('Otsuka Chemical Co., Ltd.');
  });

  it('drops lone surnames, all-caps people and lower-case phrases', () => {
    const entities = groupEntities(
      [
        { text: 'Chen', type: 'PERSON', start: 0 },
        { text: 'MS-DOS', type: 'PERSON', start: 5 },
        { text: 'AI systems', type: 'ORGANIZATION', start: 9 },
        { text: 'MT/ST', type: 'PLACE', start: 20 },
      ],
      10,
    );
    expect(entities).toEqual([]);
  });

  it('gives a name mentioned with two types the type most mentions have', () => {
    const entities = groupEntities(
      [
        { text: 'Jordan', type: 'PLACE', start: 0 },
        { text: 'Jordan', type: 'PLACE', start: 10 },
        { text: 'Jordan', type: 'ORGANIZATION', start: 20 },
      ],
      10,
    );
    expect(entities).toHaveLength(1);
    expect(entities[0]).toMatchObject({ text: 'Jordan', type: 'PLACE', occurrences: 3 });
  });
});

import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { BuiltinReader } from './builtin-reader';
import { analyzeQuestion } from './question';
import { lookupTable } from './table-lookup';
import { passageMaker } from './testing/passages';

const passage = passageMaker('report.pdf');
const row = (text: string, headings: string[]) => passage(text, { nodeType: 'row', headings });
const INT: AnswerTypeDto = { dataType: 'INT', multiValued: false };
const STRING: AnswerTypeDto = { dataType: 'STRING', multiValued: false };

const reader = new BuiltinReader();
const ask = (question: string, answerType: AnswerTypeDto, passages: ReaderPassage[]) =>
  reader.answerNow({ question, answerType }, passages);
const cited = (a: ReturnType<typeof ask>, passages: ReaderPassage[]) => {
  const [c] = a.citations;
  return passages.find((p) => p.id === c.passageId)?.text.slice(c.start, c.end);
};

// A membership table: one row per region, counts per kind of membership.
const MEMBERS = ['Club members by region', 'Region | Adult | Junior | Family | Total'];
const members = () => [
  passage('The club counts its members by region each spring.', { headings: MEMBERS.slice(0, 1) }),
  row('Norfolk | 1,204 | 310 | 95 | 1,609', MEMBERS),
  row('Suffolk | 988 | 402 | 120 | 1,510', MEMBERS),
  row('Essex | 1,530 | 275 | 88 | 1,893', MEMBERS),
  row('Kent | 870 | 515 | 60 | 1,445', MEMBERS),
];

describe('table lookup: row × column', () => {
  it('answers the cell whose row names the entity and whose column names the measure, citing the cell', () => {
    const passages = members();
    const a = ask('How many junior members does Suffolk have?', INT, passages);
    expect(a.found).toBe(true);
    expect(a.value).toEqual({ longValue: 402 });
    expect(cited(a, passages)).toBe('402');
    expect(a.explanation).toContain('column "Junior"');
  });

  it('reads a period column when the question names the year, never another year', () => {
    const heads = ['Income statement', 'Item | 2023 | 2022'];
    const passages = [row('Net sales | 4,120 | 3,870', heads), row('Operating profit | 610 | 540', heads)];
    expect(ask('What were net sales in 2022?', INT, passages).value).toEqual({ longValue: 3870 });
    expect(ask('What was the operating profit in 2023?', INT, passages).value).toEqual({ longValue: 610 });
    expect(
      lookupTable(analyzeQuestion({ question: 'What were net sales in 2021?' }), 'What were net sales in 2021?', passages, INT),
    ).toBeNull();
  });

  it('finds the row by a number the question gives, and answers the other column (the inverse lookup)', () => {
    const heads = ['Rainfall per year', 'Year | Rainfall (mm)'];
    const passages = [row('2017 | 640', heads), row('2018 | 712', heads), row('2019 | 598', heads)];
    expect(ask('What was the rainfall in 2018?', INT, passages).value).toEqual({ longValue: 712 });
    expect(ask('In which year was the rainfall 598 mm?', INT, passages).value).toEqual({ longValue: 2019 });
  });

  it('finds the row by a key column named with its value ("where col-1 is 3")', () => {
    const heads = ['col-1 | col-2 | col-3'];
    const passages = [row('1 | 3 | 9', heads), row('3 | 1 | 5', heads), row('5 | 7 | 2', heads)];
    const a = ask('What is col-3 in the row where col-1 is 3?', INT, passages);
    expect(a.value).toEqual({ longValue: 5 });
  });

  it('matches a measure the header writes with a common synonym (revenue ~ sales)', () => {
    const heads = ['Segment results', 'Segment | Sales | Employees'];
    const passages = [row('Retail | 2,400 | 310', heads), row('Wholesale | 1,150 | 95', heads)];
    expect(ask('What revenue did the wholesale segment make?', INT, passages).value).toEqual({ longValue: 1150 });
    expect(ask('What is the headcount of the retail segment?', INT, passages).value).toEqual({ longValue: 310 });
  });

  it('does not answer from another row when the row asked for is not in the table', () => {
    const q = 'How many junior members does Devon have?';
    expect(lookupTable(analyzeQuestion({ question: q }), q, members(), INT)).toBeNull();
  });

  it('does not answer from another column when the measure asked for is not in the table', () => {
    const q = 'How many senior members does Kent have?';
    const hit = lookupTable(analyzeQuestion({ question: q }), q, members(), INT);
    expect(hit?.text).not.toBe('870');
  });

  it('answers "which row has the most" over the retrieved rows of one table, leaving the total row out', () => {
    const passages = [...members(), row('Totals | 4,592 | 1,502 | 363 | 6,457', MEMBERS)];
    const a = ask('Which region had the largest number of junior members?', STRING, passages);
    expect(a.found).toBe(true);
    expect(a.rawValue).toBe('Kent');
    expect(cited(a, passages)).toBe('Kent');
  });
});

describe('table lookup: real header shapes', () => {
  // A monthly report whose header row is itself a row (the table has a title), under a second header
  // row of column groups, with a sum column and a column name repeated per group.
  const TITLE = ['Library loans March - 2024', 'Reading room | Interlibrary'];
  const loans = () => [
    row('Branch | Books | Films | Books | Films | Totals', TITLE),
    row('Riverside | 1,210 | 340 | 25 | 4 | 1,579', TITLE),
    row('Hillcrest | 860 | 410 | 12 | 9 | 1,291', TITLE),
  ];

  it('answers the sum column for "in total", a header that is one generic word the question says', () => {
    const passages = loans();
    const a = ask('What were the loans at Riverside in total?', INT, passages);
    expect(a.value).toEqual({ longValue: 1579 });
    expect(cited(a, passages)).toBe('1,579');
  });

  it('prefers the first of two columns of one name (the later one is a sub-group)', () => {
    expect(ask('How many book loans did Hillcrest have?', INT, loans()).value).toEqual({ longValue: 860 });
  });

  it('does not answer from a table headed with another month or year than the one asked', () => {
    expect(ask('How many book loans did Hillcrest have in February 2024?', INT, loans()).found).toBe(false);
    expect(ask('How many book loans did Hillcrest have in March 2023?', INT, loans()).found).toBe(false);
  });

  it('names the row by the number in its first (key) column rather than the same number in a derived column', () => {
    const head = ['Item | Item squared | time'];
    const passages = [row('3 | 9 | 0:00:27', head), row('9 | 81 | 5:28:03', head)];
    const a = ask('What duration appears in the time column for item 9?', STRING, passages);
    expect(a.rawValue).toBe('5:28:03');
  });

  it('prefers the column whose header says just what is asked, and never reads a date as a count', () => {
    const head = ['archives', 'name | recordCount | recordFrom | recordTo'];
    const passages = [row('archive-2019.zip | 812 | 2019-01-04 | 2019-12-30', head)];
    expect(ask('How many records does archive-2019.zip hold?', INT, passages).value).toEqual({ longValue: 812 });
  });
});

describe('table lookup: key/value facts', () => {
  it('answers "what kind of X" from a category key whose value names X, and a list item under a key heading', () => {
    const passages = [
      passage('category: Non-profit association'),
      passage('foundedIn: 1987'),
      passage('exchanges', { nodeType: 'heading', fileName: 'company.json' }),
      passage('Frankfurt', { nodeType: 'list_item', headings: ['exchanges'], fileName: 'company.json' }),
    ];
    expect(ask('What kind of association is the organisation?', STRING, passages).rawValue).toBe('Non-profit association');
    expect(ask('On which exchange does the company list its bonds?', STRING, passages).rawValue).toBe('Frankfurt');
  });

  it('does not read a menu item under a page title as the value of the title', () => {
    // A web page: its title is a heading, and the first list under it is the site's navigation.
    const passages = [
      passage('Duck', { nodeType: 'heading', fileName: 'duck.html' }),
      passage('What links here', { nodeType: 'list_item', headings: ['Duck'], fileName: 'duck.html' }),
      passage('Ducks eat a variety of food sources such as grasses, aquatic plants, fish and insects.', {
        fileName: 'duck.html',
        headings: ['Duck', 'Diet'],
      }),
    ];
    const q = 'What is a duck?';
    expect(lookupTable(analyzeQuestion({ question: q }), q, passages, STRING)).toBeNull();
  });

  it('does not take one item of a list under a key heading when several differ', () => {
    const passages = [
      passage('Frankfurt', { nodeType: 'list_item', headings: ['exchanges'], fileName: 'company.json' }),
      passage('Vienna', { nodeType: 'list_item', headings: ['exchanges'], fileName: 'company.json' }),
    ];
    const q = 'On which exchange does the company list its bonds?';
    expect(lookupTable(analyzeQuestion({ question: q }), q, passages, STRING)).toBeNull();
  });

  it('answers the value of a camelCase key that names what is asked', () => {
    const passages = [
      passage('legalName: Harbour Freight Ltd', { headings: ['company'] }),
      passage('countryOfRegistration: NL', { headings: ['company'] }),
      passage('countryOfRegistrationDescription: Netherlands', { headings: ['company'] }),
    ];
    const a = ask('In which country is the company registered?', STRING, passages);
    expect(a.rawValue).toBe('NL');
    expect(cited(a, passages)).toBe('NL');
  });

  it('answers a two-cell row outside a table and a "Key : value" line', () => {
    const passages = [
      passage('Personal details', { nodeType: 'heading' }),
      row('Date of birth | 14 March 1971', ['Personal details']),
      row('Place of birth | Leeds', ['Personal details']),
      passage('Grade : S355-J2'),
    ];
    const born = ask('When was she born?', { dataType: 'DATE', dateFormat: 'EUR', multiValued: false }, passages);
    expect(born.value).toEqual({ dateValue: '1971-03-14T00:00:00.000Z' });
    expect(ask('What is the place of birth?', STRING, passages).rawValue).toBe('Leeds');
    expect(ask('What grade is the steel?', STRING, passages).rawValue).toBe('S355-J2');
  });

  it('leaves a value the type cannot read to the span reader', () => {
    const passages = [passage('phone: 020 7946 0958')];
    const q = 'How many phones are there?';
    expect(lookupTable(analyzeQuestion({ question: q }), q, passages, { dataType: 'DATE', multiValued: false })).toBeNull();
  });

  it('does not take prose with a colon for a fact', () => {
    const passages = [passage('Note: the annual fee is due in March and is not refundable.')];
    const q = 'What is the note?';
    expect(lookupTable(analyzeQuestion({ question: q }), q, passages, STRING)).toBeNull();
  });
});

describe('table lookup: a period the table does not list', () => {
  it('says not found rather than answer another year of a table of years', () => {
    const heads = ['Rainfall per year', 'Year | Rainfall (mm)'];
    const passages = [row('2017 | 640', heads), row('2018 | 712', heads), row('2019 | 598', heads)];
    const a = ask('What was the rainfall in 2016?', INT, passages);
    expect(a.found).toBe(false);
    expect(a.explanation).toContain('not 2016');
  });
});

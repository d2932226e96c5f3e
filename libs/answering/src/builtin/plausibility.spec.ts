import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { BuiltinReader } from './builtin-reader';
import { buildLattice } from './lattice';
import { askedScale, enumClauseMatches } from './plausibility';
import { analyzeQuestion } from './question';
import { passageMaker } from './testing/passages';

// Short passages written for these tests, each modelled on a kind of document where the reader
// picked a value no person would.
const passage = passageMaker();
const reader = new BuiltinReader({ minConfidence: 0 });
const ask = (question: string, answerType: Partial<AnswerTypeDto> & Pick<AnswerTypeDto, 'dataType'>, passages: ReaderPassage[]) =>
  reader.answerNow({ question, answerType: { multiValued: false, ...answerType } }, passages);

describe('askedScale', () => {
  it.each([
    ['How many papers does the corpus contain, in millions?', 1e6],
    ['What was the profit, in crore rupees?', 1e7],
    ['What was revenue (in $ billions)?', 1e9],
    ['What were sales in $m?', 1e6],
    ['How much was spent, in thousands of euros?', 1e3],
    ['How many deals were closed in M&A?', undefined],
    ['How many employees were there in 2021?', undefined],
  ])('%s → %s', (question, scale) => {
    expect(askedScale(question)).toBe(scale);
  });
});

describe('typed values that fit the question', () => {
  it('reads a value in the scale the question asks for', () => {
    const passages = [passage('The Atlas corpus contains 42.7M scientific papers and 3.1B tokens of text.')];
    const papers = ask('How many papers does the Atlas corpus contain, in millions?', { dataType: 'FLOAT' }, passages);
    expect(papers).toMatchObject({ found: true, rawValue: '42.7', value: { doubleValue: 42.7 } });
    const crore = ask('What was the net profit, in crore rupees?', { dataType: 'INT' }, [
      passage('Net profit for the year rose to ₹ 12,345 crore, the highest in its history.'),
    ]);
    expect(crore).toMatchObject({ found: true, value: { longValue: 12345 } });
  });

  it('reads the whole value when no scale is asked', () => {
    const a = ask('How many papers does the Atlas corpus contain?', { dataType: 'INT' }, [
      passage('The Atlas corpus contains 42.7M scientific papers.'),
    ]);
    expect(a).toMatchObject({ found: true, value: { longValue: 42700000 } });
  });

  it('prefers the amount per unit for a rate question', () => {
    const a = ask('What hourly labor rate does the agency use in its estimates, in dollars?', { dataType: 'INT' }, [
      passage('The agency estimates the labor at 90 work-hours × $85 per work-hour = $7,650 per operator.'),
    ]);
    expect(a).toMatchObject({ found: true, value: { longValue: 85 } });
  });

  it('prefers a figure to a number written out that counts something else', () => {
    const a = ask('How many inspectors does the authority employ?', { dataType: 'INT' }, [
      passage('In one of its three regional offices the authority employs 240 inspectors.'),
    ]);
    expect(a).toMatchObject({ found: true, value: { longValue: 240 } });
    // The thing counted after the word makes it the answer.
    const kinds = ask('How many kinds of valves does the manual describe?', { dataType: 'INT' }, [
      passage('The manual describes four kinds of valves, tested at 12 sites.'),
    ]);
    expect(kinds).toMatchObject({ found: true, value: { longValue: 4 } });
  });

  it('does not answer with the number the question itself names', () => {
    const a = ask('How many A320 airplanes of US registry are affected?', { dataType: 'INT' }, [
      passage('The proposed directive affects 120 A320 airplanes of US registry.'),
    ]);
    expect(a).toMatchObject({ found: true, value: { longValue: 120 } });
    const row = ask("In the table, what is 'total' where 'count' is 7?", { dataType: 'INT' }, [
      passage('7 | 49', { nodeType: 'row', headings: ['count | total'] }),
    ]);
    expect(row).toMatchObject({ found: true, value: { longValue: 49 } });
  });

  it('takes the title number of a code for no quantity', () => {
    const a = ask('How many days does the applicant have to respond?', { dataType: 'INT' }, [
      passage('Under 14 CFR 11.35 the applicant has 30 days to respond.'),
    ]);
    expect(a).toMatchObject({ found: true, value: { longValue: 30 } });
  });

  it('takes no value of a column of reference numbers for a quantity', () => {
    const row = passage('10.37 | Fourth Amendment to the credit agreement with 12 lenders', {
      nodeType: 'row',
      headings: ['Exhibit No. | Description'],
    });
    expect(ask('How many lenders are party to the credit agreement amendment?', { dataType: 'INT' }, [row])).toMatchObject({
      found: true,
      value: { longValue: 12 },
    });
    // Unless the question asks for it.
    expect(ask('What is the exhibit number of the fourth amendment to the credit agreement?', { dataType: 'FLOAT' }, [row])).toMatchObject({
      value: { doubleValue: 10.37 },
    });
  });

  it('takes the date beside the event the question names', () => {
    const passages = [
      passage('The amendment of March 2, 2018 was revised on June 5, 2019 and signed by the director on July 14, 2020 in Dallas.'),
    ];
    const a = ask('On what date was the amendment signed?', { dataType: 'DATE' }, passages);
    expect(a).toMatchObject({ found: true, value: { dateValue: '2020-07-14T00:00:00.000Z' } });
  });
});

describe('spans that fit a who-question', () => {
  const heading = { headings: ['Certification of periodic report'] };

  it('answers with the whole name, initial included, never with a pronoun or a company suffix', () => {
    const passages = [
      passage('I, Maria L. Ortega, certify that I have reviewed this report of Northwind, Inc.', heading),
      passage('Date: May 2, 2024. This certification was signed by Maria L. Ortega.', heading),
    ];
    const a = ask('Who signed the certification?', { dataType: 'STRING' }, passages);
    expect(a).toMatchObject({ found: true, rawValue: 'Maria L. Ortega' });
  });

  it("answers a question about a person's title with the role", () => {
    const passages = [passage('Signed on May 2, 2024 by Maria L. Ortega, Chief Executive Officer', heading)];
    const a = ask('What is the title of the person signing the certification?', { dataType: 'STRING' }, passages);
    expect(a.found).toBe(true);
    expect(a.rawValue).toMatch(/Chief Executive Officer$/);
  });
});

describe('spans that fit a question for a place', () => {
  it.each([
    ['The supplier is Globex Corporation, based in Springfield.', 'In which city is the supplier based?', 'Springfield'],
    [
      'Globex Corporation has its head office in Rotterdam, where Northwind Traders Ltd also trades.',
      'Where is Globex Corporation based?',
      'Rotterdam',
    ],
  ])('answers with the place, never with the organisation beside it: %s', (text, question, place) => {
    const a = ask(question, { dataType: 'STRING' }, [passage(text)]);
    expect(a.rawValue).toBe(place);
  });

  it('still answers a question for an organisation with its legal form', () => {
    const a = ask('Which company is the supplier?', { dataType: 'STRING' }, [
      passage('The supplier is Globex Corporation, based in Springfield.'),
    ]);
    expect(a.rawValue).toContain('Globex Corporation');
  });
});

describe('allowed values in a sentence that names several', () => {
  const values = ['hourly', 'salaried', 'contract'];

  it('answers with the value of the clause the question is about, not the value named more often', () => {
    const passages = [
      passage(
        'The two usual kinds of depot staff are hourly staff and temporary staff. For simplicity only two groups of depot staff are covered here: the pickers and the packers of the depot, representing the hourly staff; and the regional account manager, representing the salaried staff.',
      ),
    ];
    const a = ask(
      'Which kind of depot staff does the regional account manager represent?',
      { dataType: 'ENUM', enumValues: values },
      passages,
    );
    expect(a.value).toEqual({ strValue: 'salaried' });
  });

  it('ends a clause before an enumerator "(b)"', () => {
    const text =
      'The plan covers: (a) the contract staff of the northern depot unless excluded (b) the hourly staff of the southern depot.';
    const q = analyzeQuestion({
      question: 'Which staff of the northern depot does the plan cover unless excluded?',
      answerType: { dataType: 'ENUM', multiValued: false },
    });
    const [view] = buildLattice(q, [passage(text)]);
    const at = (word: string): [number, number] => {
      const k = view.tokens.findIndex((t) => t.lower === word);
      return [k, k];
    };
    const mentions = [
      { range: at('contract'), value: 'contract' },
      { range: at('hourly'), value: 'hourly' },
    ];
    expect([...enumClauseMatches(view, mentions, q, values)]).toEqual([0]);
  });

  it('marks nothing when the sentence names a single value', () => {
    const text = 'The pickers of the depot are hourly staff, and so are the packers.';
    const q = analyzeQuestion({ question: 'How are the pickers of the depot paid?', answerType: { dataType: 'ENUM', multiValued: false } });
    const [view] = buildLattice(q, [passage(text)]);
    const k = view.tokens.findIndex((t) => t.lower === 'hourly');
    expect(enumClauseMatches(view, [{ range: [k, k], value: 'hourly' }], q, values).size).toBe(0);
  });
});

describe('spans that fit a question for a measurement or a number to dial', () => {
  it('answers "What size …?" with the measurement, not the words beside the question\'s terms', () => {
    const passages = [
      passage('Attach a colour photograph of yourself alone, recent enough to be a good likeness of you, and 35x45 mm in size.'),
    ];
    const a = ask('What size must the photograph be?', { dataType: 'STRING' }, passages);
    expect(a.rawValue).toContain('35x45');
  });

  it('does not answer a telephone number question with a span that has no number in it', () => {
    const passages = [passage('If your address changes before the card arrives, please call the Customer Care Center.')];
    const a = ask('What is the telephone number of the Customer Care Center?', { dataType: 'STRING' }, passages);
    expect(a.found).toBe(false);
  });

  it('answers a telephone number question with the number', () => {
    const passages = [passage('For questions, contact Dana Reyes, Customer Care Center; phone: 555-201-7788; email: care@example.com.')];
    const a = ask('What is the telephone number of the Customer Care Center?', { dataType: 'STRING' }, passages);
    expect(a.rawValue).toContain('555-201-7788');
  });
});

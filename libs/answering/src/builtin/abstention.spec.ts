import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { BuiltinReader } from './builtin-reader';
import { decide, DEFAULT_THRESHOLDS } from './decision';
import { passageMaker, answerType } from './testing/passages';

// Short passages modelled on real documents where the reader used to answer confidently and wrongly.
const passage = passageMaker();
const type = answerType;
const reader = new BuiltinReader();
const ask = (question: string, answerType: AnswerTypeDto, passages: ReaderPassage[]) =>
  reader.answerNow({ question, answerType }, passages);
const cited = (a: ReturnType<typeof ask>, passages: ReaderPassage[]) =>
  a.citations.map((c) => passages.find((p) => p.id === c.passageId)?.text.slice(c.start, c.end));

describe('decide', () => {
  it('answers exactly when the confidence reaches the threshold and no veto applies', () => {
    const t = { minConfidence: 0.4, minCoverage: 0.3 };
    expect(decide({ probability: 0.9, coverage: 1, fit: 1 }, t)).toMatchObject({ found: true, confidence: 0.9 });
    expect(decide({ probability: 0.5, coverage: 0.5, fit: 1 }, t)).toMatchObject({ found: false, confidence: 0.375 });
    expect(decide({ probability: 0.9, coverage: 1, fit: 0.5 }, t)).toMatchObject({ found: true, confidence: 0.45 });
    // A vetoed answer reports confidence 0, so found follows the confidence for every threshold.
    const vetoed = decide({ probability: 0.9, coverage: 1, fit: 1, veto: 'a reference number' }, t);
    expect(vetoed).toMatchObject({ found: false, confidence: 0, raw: 0.9, reason: 'a reference number' });
    expect(decide({ probability: 0.9, coverage: 0.2, fit: 1 }, t)).toMatchObject({ found: false, confidence: 0 });
  });

  it('has documented defaults that the reader uses', () => {
    expect(DEFAULT_THRESHOLDS.minCoverage).toBe(0.3);
    const passages = [passage('The supplier employs 45 engineers and 12 testers on the project in Berlin.')];
    const q = { question: 'How many engineers does the supplier employ?', answerType: type({ dataType: 'INT' }) };
    const a = reader.answerNow(q, passages);
    expect(a).toMatchObject({ found: true, rawValue: '45' });
    expect(a.explanation).toContain(`confidence ${a.confidence.toFixed(2)}`);
    expect(new BuiltinReader({ minConfidence: a.confidence }).answerNow(q, passages).found).toBe(true);
    const strict = new BuiltinReader({ minConfidence: a.confidence + 0.001 }).answerNow(q, passages);
    expect(strict.found).toBe(false);
    expect(strict.explanation).toMatch(/below/);
  });
});

describe('typed candidates no person would take', () => {
  it('does not read a standard number in the title as the density a datasheet does not give', () => {
    const passages = [
      passage('SNB22-3 alloy steel bolting material to JIS G 4108', { nodeType: 'heading' }),
      passage('Mechanical properties of SNB22-3: tensile strength, yield point, elongation and density are tested per lot.'),
    ];
    const a = ask('What is the density of SNB22-3?', type({ dataType: 'FLOAT' }), passages);
    expect(a.found).toBe(false);
    expect(a.confidence).toBe(0);
    expect(a.explanation).toMatch(/4108/);
  });

  it('reads the density when it is given, with its unit', () => {
    const passages = [passage('SNB22-3 bolting material to JIS G 4108. The density of SNB22-3 is 7.85 g/cm3 at room temperature.')];
    const a = ask('What is the density of SNB22-3?', type({ dataType: 'FLOAT' }), passages);
    expect(a).toMatchObject({ found: true, value: { doubleValue: 7.85 } });
  });

  it('does not read a section number as an issue date', () => {
    const passages = [passage('Permits are issued under § 1302 of the Building Code by the county office.')];
    const a = ask('What is the issue date of the permit?', type({ dataType: 'DATE' }), passages);
    expect(a.found).toBe(false);
  });

  it('skips section, paragraph, part and form numbers for a count', () => {
    const passages = [
      passage('Under Section 4.2 and paragraph (b)(3) of Part 2, the contractor shall employ 35 inspectors on site.'),
      passage('Form 1040 lists the inspectors of the county.'),
    ];
    const a = ask('How many inspectors shall the contractor employ?', type({ dataType: 'INT' }), passages);
    expect(a).toMatchObject({ found: true, value: { longValue: 35 } });
  });

  it('takes no title or chapter number of a code for a count', () => {
    const passages = [passage('The trustee appointed under chapter 13 of title 11 administers the plan for the debtor.')];
    const a = ask('How many trustees administer the plan?', type({ dataType: 'INT' }), passages);
    expect(a.found).toBe(false);
    expect(a.explanation).toMatch(/reference number/);
  });

  it('prefers the death toll to the footnote mark after it', () => {
    const passages = [passage('The storm killed 157 people in the coastal provinces, the ministry reports 7.')];
    const a = ask('How many people did the storm kill?', type({ dataType: 'INT' }), passages);
    expect(a.value).toEqual({ longValue: 157 });
  });

  it('does not answer a count with a year', () => {
    const passages = [passage('In 2019 the company opened new offices in Lyon and Porto for its employees.')];
    const a = ask('How many employees does the company have?', type({ dataType: 'INT' }), passages);
    expect(a.found).toBe(false);
  });

  it('does not answer a price with a phone number', () => {
    const passages = [passage('For the price of the annual licence call our sales desk at +44 20 7946 0958.')];
    const a = ask('What is the price of the annual licence?', type({ dataType: 'FLOAT' }), passages);
    expect(a.found).toBe(false);
  });

  it('wants the unit the question asks for', () => {
    const passages = [passage('The pump unit is 1.2 m long and weighs 85 kg when empty; it was installed in 2 days.')];
    expect(ask('How heavy is the pump unit?', type({ dataType: 'FLOAT' }), passages).value).toEqual({ doubleValue: 85 });
    expect(ask('What is the weight of the pump unit?', type({ dataType: 'FLOAT' }), passages).rawValue).toBe('85 kg');
    expect(ask('How long is the pump unit in metres?', type({ dataType: 'FLOAT' }), passages).value).toEqual({ doubleValue: 1.2 });
  });

  it('takes the column of the period asked for in a table row', () => {
    const header = 'Key figures | January-June 2023 | January-June 2022';
    const passages = [
      passage('Net sales | 4,210 | 3,980', { nodeType: 'row', headings: ['Half-year report', header] }),
      passage('Operating profit | 512 | 430', { nodeType: 'row', headings: ['Half-year report', header] }),
    ];
    const a = ask('What were net sales in January-June 2022?', type({ dataType: 'INT' }), passages);
    expect(a).toMatchObject({ found: true, value: { longValue: 3980 } });
    const b = ask('What was the operating profit in January-June 2023?', type({ dataType: 'INT' }), passages);
    expect(b).toMatchObject({ found: true, value: { longValue: 512 } });
  });

  it('does not answer a count of employees with a profit cell', () => {
    const header = 'EUR million | 2023 | 2022';
    const passages = [
      passage('Operating profit | 512 | 430', { nodeType: 'row', headings: ['Annual report 2023 of the company', header] }),
      passage('Net sales | 4,210 | 3,980', { nodeType: 'row', headings: ['Annual report 2023 of the company', header] }),
    ];
    const a = ask('How many employees did the company have in 2023?', type({ dataType: 'INT' }), passages);
    expect(a.found).toBe(false);
  });
});

describe('yes/no questions: negation and modality', () => {
  it('reads "not considered mandatory" as no', () => {
    const passages = [
      passage('Practice Tips are provided for guidance and are not considered mandatory for the assessment.', {
        headings: ['Practice Tips'],
      }),
    ];
    const a = ask('Are the Practice Tips mandatory?', type({ dataType: 'BOOL' }), passages);
    expect(a).toMatchObject({ found: true, value: { boolValue: false } });
  });

  it('does not let "without" negate the main verb', () => {
    const passages = [passage('The Rol-top nut can be removed and reused without impairing its locking efficiency.')];
    const a = ask('Can the nut be removed and reused?', type({ dataType: 'BOOL' }), passages);
    expect(a).toMatchObject({ found: true, value: { boolValue: true } });
    const b = ask('Can the nut be reused?', type({ dataType: 'BOOL' }), [passage('The nut cannot be reused once removed.')]);
    expect(b).toMatchObject({ found: true, value: { boolValue: false } });
  });

  it('reads modal verbs: permission is not obligation, "need not" and "is not permitted" deny', () => {
    const may = [passage('The tenant may sublet the premises with the written consent of the landlord.')];
    expect(ask('Must the tenant sublet the premises?', type({ dataType: 'BOOL' }), may).value).toEqual({ boolValue: false });
    expect(ask('May the tenant sublet the premises?', type({ dataType: 'BOOL' }), may).value).toEqual({ boolValue: true });
    const must = [passage('The tenant must insure the premises against fire.')];
    expect(ask('Is the tenant required to insure the premises?', type({ dataType: 'BOOL' }), must).value).toEqual({ boolValue: true });
    const needNot = [passage('The buyer need not inspect the goods on delivery.')];
    expect(ask('Must the buyer inspect the goods?', type({ dataType: 'BOOL' }), needNot).value).toEqual({ boolValue: false });
    const forbidden = [passage('Smoking is not permitted anywhere in the building.')];
    expect(ask('Is smoking permitted in the building?', type({ dataType: 'BOOL' }), forbidden).value).toEqual({ boolValue: false });
    const optional = [passage('Attendance at the briefing is optional for subcontractors.')];
    expect(ask('Is attendance at the briefing mandatory?', type({ dataType: 'BOOL' }), optional).value).toEqual({ boolValue: false });
  });

  it('abstains when the best sentence does not address what is asked', () => {
    const passages = [passage('The Practice Tips were revised in 2021 and are published on the council website.')];
    const a = ask('Are the Practice Tips mandatory?', type({ dataType: 'BOOL' }), passages);
    expect(a.found).toBe(false);
    expect(a.explanation).toMatch(/mandatory/);
  });
});

describe('STRING spans: the argument of the question, items of one kind', () => {
  it('answers "made of X" with X, not a name next to the question words', () => {
    const passages = [
      passage('The Rol-top nut is available in steel and stainless steel, while the bellows type is made of aluminum alloy only.'),
    ];
    const a = ask('What metal is the bellows type nut made of?', type({ dataType: 'STRING' }), passages);
    expect(a.rawValue).toBe('aluminum alloy');
  });

  it('answers "funded by X" with X', () => {
    const passages = [passage('The Lake Survey, led by Dr. Anna Berg of Uppsala University, was funded by the Nordic Water Council.')];
    const a = ask('Who funded the Lake Survey?', type({ dataType: 'STRING' }), passages);
    expect(a.rawValue).toMatch(/Nordic Water Council$/);
  });

  it('keeps the items of a multi-valued answer of one kind', () => {
    const passages = [
      passage('Authors: Maria Lopez, James Chen and Aiko Tanaka', { headings: ['Groundwater trends in Andalusia'] }),
      passage('Data sources: Copernicus, EUROSTAT and the national water registry.', { headings: ['Groundwater trends in Andalusia'] }),
    ];
    const a = ask('Who are the authors?', type({ dataType: 'STRING', multiValued: true }), passages);
    expect(a.found).toBe(true);
    expect(a.rawValue).toMatch(/Maria Lopez/);
    expect(a.rawValue).not.toMatch(/Copernicus|EUROSTAT|registry/);
    expect(cited(a, passages).length).toBeGreaterThan(0);
  });

  it('does not continue a list of authors with the data sources of the next sentence', () => {
    const passages = [
      passage('The report was written by Maria Lopez, James Chen and Aiko Tanaka of the University of Seville.'),
      passage('The report draws on data from Copernicus, EUROSTAT and the national water registry.'),
    ];
    const a = ask('Who wrote the report?', type({ dataType: 'STRING', multiValued: true }), passages);
    expect(a.found).toBe(true);
    expect(a.rawValue).toMatch(/Maria Lopez/);
    expect(a.rawValue).not.toMatch(/Copernicus|EUROSTAT|registry|Seville/);
  });

  it('gathers the names a paragraph states one per line', () => {
    const passages = [
      passage(
        'Globex Corporation is based in Springfield and delivers within 14 days.\nInitech is based in Austin and delivers within 30 days.',
      ),
    ];
    const a = ask(
      'Who are the suppliers? City, where the supplier is based; Delivery days, days to deliver',
      type({ dataType: 'STRING', multiValued: true }),
      passages,
    );
    expect(a.rawValue).toMatch(/Globex Corporation/);
    expect(a.rawValue).toMatch(/Initech/);
  });

  it('takes the sibling items of a list under the same heading', () => {
    const item = (text: string, heading: string) => passage(text, { nodeType: 'list_item', headings: ['Groundwater trends', heading] });
    const passages = [item('Maria Lopez', 'Authors'), item('James Chen', 'Authors'), item('Copernicus', 'Data sources')];
    const a = ask('Who are the authors?', type({ dataType: 'STRING', multiValued: true }), passages);
    expect(a.value).toEqual({ strListValue: ['Maria Lopez', 'James Chen'] });
  });
});

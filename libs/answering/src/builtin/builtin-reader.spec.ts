import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { BuiltinReader } from './builtin-reader';
import { splitSentences } from './sentences';
import { passageMaker, answerType } from './testing/passages';

const passage = passageMaker('contract.pdf');
const type = answerType;

const reader = new BuiltinReader();
const ask = (question: string, answerType: AnswerTypeDto, passages: ReaderPassage[]) => reader.answer({ question, answerType }, passages);

const contract = () => [
  passage('This Services Agreement is entered into by Acme Corp and Globex Ltd. The agreement commences on 1 March 2024.'),
  passage('The initial term ends on 28 February 2026. The monthly fee is €12,500.50, payable within 30 days of invoice.'),
  passage('The agreement does not renew automatically. Either party may terminate with 90 days notice.'),
  passage('Fee schedule | Fixed price | EUR', { nodeType: 'row' }),
  passage('The supplier employs 45 engineers on the project in Berlin.'),
];

describe('BuiltinReader', () => {
  it('answers a DATE question with the date of the matching sentence and cites its span', async () => {
    const passages = contract();
    const a = await ask('When does the initial term end?', type({ dataType: 'DATE', dateFormat: 'EUR' }), passages);
    expect(a.found).toBe(true);
    expect(a.value).toEqual({ dateValue: '2026-02-28T00:00:00.000Z' });
    expect(a.rawValue).toBe('28/02/2026');
    const [c] = a.citations;
    const cited = passages.find((p) => p.id === c.passageId);
    expect(cited?.text.slice(c.start, c.end)).toBe('28 February 2026');
  });

  it('answers INT and FLOAT questions', async () => {
    const n = await ask('How many engineers does the supplier employ?', type({ dataType: 'INT' }), contract());
    expect(n.value).toEqual({ longValue: 45 });
    const f = await ask('What is the monthly fee?', type({ dataType: 'FLOAT', decimalPrecision: 'ONE_DECIMAL' }), contract());
    expect(f.value).toEqual({ doubleValue: 12500.5 });
    expect(f.rawValue).toBe('12500.5');
  });

  it('answers BOOL questions from the polarity of the matching sentence', async () => {
    const a = await ask('Does the agreement renew automatically?', type({ dataType: 'BOOL' }), contract());
    expect(a.value).toEqual({ boolValue: false });
    const b = await ask('May either party terminate the agreement?', type({ dataType: 'BOOL' }), contract());
    expect(b.value).toEqual({ boolValue: true });
  });

  it('answers ENUM questions with an allowed value, never a rejected one', async () => {
    const enumType = type({ dataType: 'ENUM', enumValues: ['Fixed price', 'Time and materials'] });
    const a = await ask('What is the fee schedule?', enumType, contract());
    expect(a.value).toEqual({ strValue: 'Fixed price' });
    const b = await ask('What is the fee schedule?', { ...enumType, rejectedEnumValues: ['Fixed price'] }, contract());
    expect(b.found).toBe(false);
  });

  it('answers STRING questions with a span of the passage', async () => {
    const a = await ask('Where does the supplier employ engineers on the project?', type({ dataType: 'STRING' }), contract());
    expect(a.found).toBe(true);
    expect(a.rawValue).toBe('Berlin');
    expect(a.value).toEqual({ strValue: 'Berlin' });
  });

  it('says it found nothing when no passage matches the question', async () => {
    const a = await ask('What is the airspeed velocity of an unladen swallow?', type({ dataType: 'FLOAT' }), contract());
    expect(a.found).toBe(false);
    expect(a.rawValue).toBe('');
    expect(a.explanation).not.toBe('');
    expect((await ask('Anything?', type({ dataType: 'STRING' }), [])).found).toBe(false);
  });

  it('returns several values for a multi-valued question', async () => {
    const passages = [passage('Payments were made on 1 March 2024, 1 April 2024 and 1 May 2024 by wire transfer.')];
    const a = await ask('On which dates were payments made?', type({ dataType: 'DATE', multiValued: true }), passages);
    expect(a.value?.dateListValue).toEqual(expect.arrayContaining(['2024-03-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z']));
    expect(a.citations.length).toBe(a.value?.dateListValue?.length);
  });

  it('answers over 50 passages of the same shape with the place they all name', async () => {
    // Its speed is measured by the documents bench (latency per question), not asserted here.
    const many = Array.from({ length: 50 }, (_, i) =>
      passage(
        `Section ${i}. The vendor shall deliver ${i + 1} units to the warehouse in Lyon within ${i + 5} days of the order, unless agreed otherwise in writing.`,
      ),
    );
    const a = await ask('Where shall the vendor deliver the units?', type({ dataType: 'STRING' }), many);
    expect(a.found).toBe(true);
    expect(a.rawValue).toMatch(/Lyon/);
  });
});

describe('splitSentences', () => {
  it('does not split after abbreviations or initials', () => {
    const text = 'Dr. Smith met J. Doe at 5 p.m. in the U.S. office. They signed. Then they left!';
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'Dr. Smith met J. Doe at 5 p.m. in the U.S. office.',
      'They signed.',
      'Then they left!',
    ]);
  });

  it('keeps a label line with the value written below it, but not a list with its heading', () => {
    const split = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));
    expect(split('FOR FURTHER INFORMATION CONTACT:\nIan Smith, telephone 202-555-0100.\nSUPPLEMENTARY INFORMATION:')).toEqual([
      'FOR FURTHER INFORMATION CONTACT:\nIan Smith, telephone 202-555-0100.',
      'SUPPLEMENTARY INFORMATION:',
    ]);
    expect(split('Ingredients:\n- flour\n- sugar')).toEqual(['Ingredients:', '- flour', '- sugar']);
    expect(split('The parties to the agreement, as listed in the schedule below, are these:\nAcme')).toEqual([
      'The parties to the agreement, as listed in the schedule below, are these:',
      'Acme',
    ]);
  });
});

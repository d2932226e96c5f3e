import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { BuiltinReader } from './builtin-reader';
import { confidenceOf } from './decision';
import { passageMaker } from './testing/passages';

// Questions the document cannot answer mostly get an answer from a sentence about something else:
// another measure, another entity. These check that the confidence says so.
const passage = passageMaker('doc.pdf', 'd');
const INT: AnswerTypeDto = { dataType: 'INT', multiValued: false };
const FLOAT: AnswerTypeDto = { dataType: 'FLOAT', multiValued: false };
const DATE: AnswerTypeDto = { dataType: 'DATE', multiValued: false };
const open = new BuiltinReader({ minConfidence: 0.01 });
const ask = (question: string, type: AnswerTypeDto, passages: ReaderPassage[], reader = open) =>
  reader.answerNow({ question, answerType: type }, passages);

describe('confidence and what the sentence leaves unsaid', () => {
  it('halves the confidence of a number whose sentence does not name what is counted, and lowers it for missing rare words', () => {
    const base = { probability: 0.8, coverage: 1, fit: 1 };
    expect(confidenceOf({ ...base, focusAbsent: true })).toBeCloseTo(confidenceOf(base) / 2);
    expect(confidenceOf({ ...base, rareAbsent: 1 })).toBeCloseTo(confidenceOf(base) * 0.6);
    expect(confidenceOf({ ...base, rareAbsent: 0.5 })).toBeCloseTo(confidenceOf(base) * 0.8);
  });

  it('takes a money amount as naming the fee asked about', () => {
    const a = ask(
      'What transfer fee did Rovers pay for Dalton?',
      FLOAT,
      [passage('Dalton moved to Rovers before the 1990 season for £275,000.')],
      new BuiltinReader(),
    );
    expect(a).toMatchObject({ found: true, value: { doubleValue: 275000 } });
  });

  it('takes a unit the question names as naming the measure asked about', () => {
    const a = ask(
      'At what clock speed in GHz does the Orion X2 processor run?',
      FLOAT,
      [passage('The benchmarks ran on an Orion X2 processor running at 3.1 GHz and 32 GB of memory.')],
      new BuiltinReader(),
    );
    expect(a).toMatchObject({ found: true, value: { doubleValue: 3.1 } });
  });

  it('is less sure of a count read beside another noun than of one read beside the noun asked about', () => {
    const q = 'How many employees does Northwind Traders have?';
    const other = ask(q, INT, [passage('Northwind Traders served 500 customers across the region last year.')]);
    const same = ask(q, INT, [passage('Northwind Traders has 500 employees across the region.')]);
    expect(same.found && other.found).toBe(true);
    expect(other.confidence).toBeLessThan(same.confidence * 0.7);
  });

  it('is less sure of a value read from a sentence about another named model', () => {
    const q = 'What learning rate was used to pretrain Zephyrnet?';
    const other = ask(q, FLOAT, [passage('We pretrained Quokkabert with a learning rate of 0.0005 for ten epochs.')]);
    const same = ask(q, FLOAT, [passage('We pretrained Zephyrnet with a learning rate of 0.0005 for ten epochs.')]);
    expect(same.found).toBe(true);
    expect(other.confidence).toBeLessThan(same.confidence * 0.8);
  });

  it('does not veto a short sentence that holds the rare words of the question but few of its common ones', () => {
    const q = "When was the Zephyrnet cooperative's founding charter last amended by the members?";
    const a = ask(q, DATE, [passage('Zephyrnet: amended 2026-06-18.')], new BuiltinReader());
    expect(a).toMatchObject({ found: true, rawValue: '2026-06-18' });
    // A sentence with none of the question's words is still withheld.
    expect(ask(q, DATE, [passage('The annual report was published 2026-06-18.')], new BuiltinReader()).found).toBe(false);
  });
});

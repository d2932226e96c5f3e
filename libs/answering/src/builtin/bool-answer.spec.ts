import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../reader';
import { sentencePolarity } from './bool-answer';
import { BuiltinReader } from './builtin-reader';
import { analyzeQuestion } from './question';

let seq = 0;
const passage = (text: string): ReaderPassage => ({
  id: `p${++seq}`,
  fileId: 'f1',
  fileName: 'manual.pdf',
  nodeType: 'paragraph',
  text,
  headings: [],
  score: 1,
});
const BOOL: AnswerTypeDto = { dataType: 'BOOL', multiValued: false };
const reader = new BuiltinReader();
const ask = (question: string, ...texts: string[]) => reader.answerNow({ question, answerType: BOOL }, texts.map(passage));
const polarity = (sentence: string, question: string) => sentencePolarity(sentence, analyzeQuestion({ question }));

describe('yes/no: contraries of the question word', () => {
  it('denies a comparative with its contrary and affirms it when negated', () => {
    expect(polarity('The groove in the shaft is wider than the pin.', 'Is the groove narrower than the pin?')).toBe(false);
    expect(polarity('The groove in the shaft is not wider than the pin.', 'Is the groove narrower than the pin?')).toBe(true);
    expect(polarity('The groove in the shaft is narrower than the pin.', 'Is the groove narrower than the pin?')).toBe(true);
  });

  it('reads a negating affix as a denial', () => {
    expect(ask('Can the booking deposit be refunded?', 'Please note that the booking deposit is non-refundable.')).toMatchObject({
      found: true,
      value: { boolValue: false },
    });
    expect(polarity('The source code of the tool is unavailable to the public.', 'Is the source code of the tool available?')).toBe(false);
    expect(polarity('Such a waiver is invalid under the contract.', 'Is such a waiver valid under the contract?')).toBe(false);
  });

  it('denies a word the question holds with a negating affix', () => {
    expect(polarity('The results show that the enzyme is dispensable for growth.', 'Is the enzyme indispensable for growth?')).toBe(false);
  });

  it('reads a word of the same sense as the question word, with its negation', () => {
    expect(polarity('The enzyme is not essential for growth of the yeast.', 'Is the enzyme indispensable for growth of the yeast?')).toBe(
      false,
    );
  });

  it('denies a recommendation with advice against it', () => {
    expect(
      polarity(
        'It is sub-optimal to translate the whole manual by machine and then correct it.',
        'Do the authors recommend translating the whole manual by machine?',
      ),
    ).toBe(false);
  });

  it('leaves words that only look affixed alone', () => {
    expect(polarity('The office will inform the applicant of the decision.', 'Will the office form a decision?')).toBe(true);
  });
});

describe('yes/no: exceptions and restrictions', () => {
  it('denies the rule of what only its "unless" clause mentions', () => {
    const s = 'A member is entitled to vote at the annual meeting unless he is serving a suspension.';
    expect(polarity(s, 'Is a member serving a suspension entitled to vote at the annual meeting?')).toBe(false);
    expect(polarity(s, 'Is a member entitled to vote at the annual meeting?')).toBe(true);
  });

  it('does not deny a rule for a word its exception shares with the rule', () => {
    const s = 'Except as provided in the lease, the clauses of this schedule do not apply to the garden.';
    expect(polarity(s, 'Do the clauses of this schedule apply to the garden?')).toBe(false);
  });

  it('answers no when the sentence restricts the thing to somewhere the question does not ask about', () => {
    const text = 'Same-day delivery is offered only in the city centre.';
    expect(ask('Can customers in the suburbs get same-day delivery?', text)).toMatchObject({ found: true, value: { boolValue: false } });
    expect(ask('Is same-day delivery offered in the city centre?', text)).toMatchObject({ found: true, value: { boolValue: true } });
  });

  it('answers no to "only when" when the sentence says the condition does not matter', () => {
    const text = 'Every defect, whether or not visible, must be reported to the inspector.';
    expect(ask('Must a defect be reported to the inspector only when it is visible?', text)).toMatchObject({
      found: true,
      value: { boolValue: false },
    });
    expect(ask('Must a visible defect be reported to the inspector?', text)).toMatchObject({ found: true, value: { boolValue: true } });
  });
});

describe('yes/no: which sentence decides', () => {
  it('prefers the sentence that speaks of the predicate over one that only shares the subject', () => {
    const a = ask(
      'Do these figures represent the number of cars sold?',
      'These figures represent the number of cars registered in the region. They do not represent the number of cars sold.',
    );
    expect(a).toMatchObject({ found: true, value: { boolValue: false } });
  });

  it('keeps the negations of two coordinated clauses apart', () => {
    const a = ask(
      'Does the company plan to buy back shares in the coming year?',
      'The company has not bought back any shares, and it does not plan to buy back shares in the coming year.',
    );
    expect(a).toMatchObject({ found: true, value: { boolValue: false } });
  });

  it('answers no to an obligation the sentence denies even when it encourages the act', () => {
    const text = 'Members are encouraged to attend the workshops listed in this guide, but these are not considered mandatory.';
    expect(ask('Are members obliged to attend the workshops in this guide?', text)).toMatchObject({
      found: true,
      value: { boolValue: false },
    });
    const personally = 'The treasurer is accountable for all payments in this guide, but need not personally sign any payment.';
    expect(ask('Does the treasurer have to sign every payment in this guide personally?', personally)).toMatchObject({
      found: true,
      value: { boolValue: false },
    });
  });

  it('gives less confidence to a sentence that leaves part of the predicate unsaid', () => {
    const direct = ask('Is the warranty transferable to a new owner?', 'The warranty is transferable to a new owner of the vehicle.');
    const partial = ask('Is the warranty transferable to a new owner?', 'The warranty of a new car is transferable.');
    expect(direct.found && partial.found).toBe(true);
    expect(partial.confidence).toBeLessThan(direct.confidence);
  });
});

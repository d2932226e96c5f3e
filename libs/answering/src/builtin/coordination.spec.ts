import { BuiltinReader } from './builtin-reader';
import { coordinationAround } from './coordination';
import { passageMaker, answerType } from './testing/passages';

const around = (sentence: string, span: string, kind: 'name' | 'phrase') => {
  const at = sentence.indexOf(span);
  return coordinationAround(sentence, 0, sentence.length, at, at + span.length, kind)?.map((i) => i.text);
};

describe('coordinationAround', () => {
  it('reads every name of a list from one of them, leaving out the lead-in and what follows', () => {
    const s = 'The report was written by Jim Bainbridge, Hernando Bedoya, Rob Bestgen and Mike Cain in 2016.';
    expect(around(s, 'Rob Bestgen', 'name')).toEqual(['Jim Bainbridge', 'Hernando Bedoya', 'Rob Bestgen', 'Mike Cain']);
    expect(around(s, 'Jim Bainbridge, Hernando Bedoya', 'name')).toEqual(['Jim Bainbridge', 'Hernando Bedoya', 'Rob Bestgen', 'Mike Cain']);
  });

  it('keeps names that hold joiners, starts after a colon, and grows a span that is part of an item', () => {
    const s = 'Affiliations: Massachusetts Institute of Technology, Allen Institute for AI, Northwestern University';
    const all = ['Massachusetts Institute of Technology', 'Allen Institute for AI', 'Northwestern University'];
    expect(around(s, 'Allen Institute for AI', 'name')).toEqual(all);
    expect(around(s, 'AI', 'name')).toEqual(all);
  });

  it('reads short phrases, without their articles', () => {
    const s = 'The two general types in use are the all-metal type and the fiber lock type.';
    expect(around(s, 'the all-metal type and the fiber lock type', 'phrase')).toEqual(['all-metal type', 'fiber lock type']);
  });

  it('is no list when the span is a word inside a clause, or stands alone', () => {
    expect(around('In 2019 Smith visited Paris, and then he rested.', 'Paris', 'name')).toBeUndefined();
    expect(around('The supplier is Globex Ltd.', 'Globex Ltd', 'name')).toBeUndefined();
  });
});

describe('BuiltinReader, lists', () => {
  const passage = passageMaker('passport.pdf');
  it('answers a list question with every item of the coordination, each cited where it stands', async () => {
    const passages = [
      passage('Fees may be paid by check or money order.'),
      passage('The credit cards accepted for the fees are Visa, Master Card, American Express and Discover.'),
    ];
    const a = await new BuiltinReader().answer(
      { question: 'Which credit cards are accepted for the fees?', answerType: answerType({ dataType: 'STRING', multiValued: true }) },
      passages,
    );
    expect(a.found).toBe(true);
    expect(a.value).toEqual({ strListValue: ['Visa', 'Master Card', 'American Express', 'Discover'] });
    const cited = a.citations.map((c) => passages.find((p) => p.id === c.passageId)!.text.slice(c.start, c.end));
    expect(cited).toEqual(['Visa', 'Master Card', 'American Express', 'Discover']);
  });
});

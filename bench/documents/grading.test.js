'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { gradeAnswer, citationHolds, textHolds } = require('./grading');

const q = (answerType, answers, extra = {}) => ({
  id: 't',
  question: '?',
  answerType,
  answers,
  evidence: '',
  style: 'lookup',
  lure: false,
  ...extra,
});
const found = (rawValue, answer) => ({ found: true, rawValue, answer, confidence: 0.9, referenceIds: [] });
const notFound = { found: false, rawValue: '', referenceIds: [] };

describe('gradeAnswer: answerable STRING', () => {
  const question = q({ dataType: 'STRING' }, ['Christopher Latham Sholes', 'Sholes']);

  it('is right and exact on the same text up to case, articles and punctuation', () => {
    const g = gradeAnswer(question, found('Christopher Latham Sholes.', { strValue: 'Christopher Latham Sholes.' }));
    assert.equal(g.right, true);
    assert.equal(g.exact, true);
  });

  it('is right but not exact at token F1 >= 0.5 against the best alternative', () => {
    const g = gradeAnswer(question, found('by Christopher Sholes', { strValue: 'by Christopher Sholes' }));
    assert.equal(g.right, true);
    assert.equal(g.exact, false);
  });

  it('is wrong below F1 0.5, and says so', () => {
    const g = gradeAnswer(question, found('the IBM company in New York', { strValue: 'the IBM company in New York' }));
    assert.equal(g.right, false);
    assert.equal(g.why, 'wrong');
  });

  it('counts a not-found answer as wrong with its reason', () => {
    const g = gradeAnswer(question, notFound);
    assert.deepEqual([g.right, g.why], [false, 'not found']);
  });
});

describe('gradeAnswer: lists by item precision and recall', () => {
  const question = q({ dataType: 'STRING', multiValued: true }, ['flour', 'sugar', 'butter', 'eggs']);

  it('is right when most items match, exact only when all do', () => {
    const g = gradeAnswer(question, found('flour, sugar, butter', { strListValue: ['flour', 'sugar', 'butter'] }));
    assert.equal(g.precision, 1);
    assert.equal(g.recall, 0.75);
    assert.equal(g.right, true);
    assert.equal(g.exact, false);
    assert.equal(gradeAnswer(question, found('', { strListValue: ['eggs', 'butter', 'sugar', 'flour'] })).exact, true);
  });

  it('is wrong when the items are mostly others', () => {
    const g = gradeAnswer(question, found('', { strListValue: ['salt', 'milk', 'yeast', 'flour'] }));
    assert.equal(g.right, false);
  });
});

describe('gradeAnswer: typed values are exact', () => {
  it('INT compares the number, whatever the raw text looks like', () => {
    assert.equal(gradeAnswer(q({ dataType: 'INT' }, ['80863']), found('80,863 pages', { longValue: 80863 })).right, true);
    assert.equal(gradeAnswer(q({ dataType: 'INT' }, ['80863']), found('80,862', { longValue: 80862 })).right, false);
  });

  it('INT reads rawValue when the service gave no typed value', () => {
    assert.equal(gradeAnswer(q({ dataType: 'INT' }, ['647']), found('647 league appearances', undefined)).right, true);
  });

  it('FLOAT allows a relative difference of 1e-6 only', () => {
    assert.equal(gradeAnswer(q({ dataType: 'FLOAT' }, ['3.5']), found('3.5', { doubleValue: 3.5000000001 })).right, true);
    assert.equal(gradeAnswer(q({ dataType: 'FLOAT' }, ['3.5']), found('3.51', { doubleValue: 3.51 })).right, false);
  });

  it('DATE compares the day of the ISO date-time', () => {
    assert.equal(
      gradeAnswer(q({ dataType: 'DATE' }, ['1968-06-26']), found('26 June 1968', { dateValue: '1968-06-26T00:00:00.000Z' })).right,
      true,
    );
    assert.equal(
      gradeAnswer(q({ dataType: 'DATE' }, ['1968-06-26']), found('June 1968', { dateValue: '1968-06-01T00:00:00.000Z' })).right,
      false,
    );
  });

  it('BOOL and ENUM compare the value', () => {
    assert.equal(gradeAnswer(q({ dataType: 'BOOL' }, ['No']), found('No', { boolValue: false })).right, true);
    assert.equal(gradeAnswer(q({ dataType: 'BOOL' }, ['No']), found('Yes', { boolValue: true })).right, false);
    const e = q({ dataType: 'ENUM', enumValues: ['low', 'medium', 'high'] }, ['high']);
    assert.equal(gradeAnswer(e, found('High', { strValue: 'High' })).right, true);
    assert.equal(gradeAnswer(e, found('medium', { strValue: 'medium' })).right, false);
  });
});

describe('gradeAnswer: unanswerable', () => {
  const question = q({ dataType: 'FLOAT' }, []);
  it('is right only when nothing is found', () => {
    assert.equal(gradeAnswer(question, notFound).right, true);
    const g = gradeAnswer(question, found('1.91', { doubleValue: 1.91 }));
    assert.deepEqual([g.right, g.why], [false, 'answered unanswerable']);
  });
});

describe('citationHolds', () => {
  it('STRING: holds when the read-back contains an alternative, or a window at F1 >= 0.5', () => {
    const question = q({ dataType: 'STRING' }, ['Christopher Latham Sholes']);
    assert.equal(citationHolds(question, 'Patented in 1868 by Christopher Latham Sholes, the typewriter'), true);
    assert.equal(citationHolds(question, 'Patented in 1868 by C. L. Sholes and Christopher Glidden'), true);
    assert.equal(citationHolds(question, 'The concept of the word processor predates modern computers'), false);
  });

  it('INT: holds when a number of the read-back equals the expected one, as written', () => {
    const question = q({ dataType: 'INT' }, ['80863']);
    assert.equal(citationHolds(question, 'DocLayNet contains 80,863 manually annotated pages'), true);
    assert.equal(citationHolds(question, 'DocLayNet contains 80 thousand pages of 6 kinds'), false);
  });

  it('DATE: holds on a full date written any way findDates reads', () => {
    const question = q({ dataType: 'DATE' }, ['1968-06-26']);
    assert.equal(citationHolds(question, 'Iwan Wyn Roberts (born 26 June 1968) is a Welsh'), true);
    assert.equal(citationHolds(question, 'born in June 1968'), false);
  });

  it('BOOL / ENUM: holds when the read-back has half of the evidence quote', () => {
    const question = q({ dataType: 'BOOL' }, ['No'], { evidence: 'amassed fifteen caps between 1989 and 2001, without scoring' });
    assert.equal(
      citationHolds(question, 'He played international football for Wales and amassed fifteen caps between 1989 and 2001'),
      true,
    );
    assert.equal(citationHolds(question, 'Roberts made 647 league appearances during his career'), false);
  });

  it('lists: holds when every item the answer got right is in the read-back', () => {
    const question = q({ dataType: 'STRING', multiValued: true }, ['Watford', 'Norwich City', 'Gillingham']);
    const result = found('', { strListValue: ['Watford', 'Norwich City'] });
    assert.equal(citationHolds(question, 'Watford 63 (9) ... Norwich City 278 (84)', result), true);
    assert.equal(citationHolds(question, 'Watford 63 (9)', result), false);
  });

  it('an empty read-back holds nothing', () => {
    assert.equal(textHolds('', 'IBM'), false);
    assert.equal(citationHolds(q({ dataType: 'STRING' }, ['IBM']), ''), false);
  });
});

import { BuiltinReader } from './builtin-reader';
import { answerType, passageMaker } from './testing/passages';

// A value often stands a line apart from the words it answers: a label or a title above it, a
// signature above its date. The search gives each passage the text of the nodes beside it.
const reader = new BuiltinReader();

describe('the words beside a passage', () => {
  it('answers from a terse line whose subject is the line above it', () => {
    const passage = passageMaker('spec.docx');
    const q = {
      question: 'When was the list of changes to the DOCLANG Core Spec last updated?',
      answerType: answerType({ dataType: 'DATE' }),
    };
    const terse = passage('Last Updated: 2026-06-18');
    const elsewhere = passage('Phase 2 adds spaces to large numbers and rewrites the foreword of the spec.');

    const alone = reader.answerNow(q, [terse, elsewhere]);
    expect(alone.found).toBe(false);

    const withTitle = reader.answerNow(q, [{ ...terse, before: 'Changes to the DOCLANG Core Spec' }, elsewhere]);
    expect(withTitle).toMatchObject({ found: true, rawValue: '2026-06-18' });
    // The citation is the value's own passage, not its neighbour.
    expect(withTitle.citations[0].passageId).toBe(terse.id);
  });

  it('does not answer from a neighbour that speaks of something else', () => {
    const passage = passageMaker('spec.docx');
    const q = {
      question: 'When was the list of changes to the DOCLANG Core Spec last updated?',
      answerType: answerType({ dataType: 'DATE' }),
    };
    const a = reader.answerNow(q, [
      { ...passage('Date: 2026-06-18'), before: 'Minutes of the budget committee', after: 'Attendees: four members' },
    ]);
    expect(a.found).toBe(false);
  });
});

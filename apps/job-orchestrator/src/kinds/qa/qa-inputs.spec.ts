import { DomainError } from '@docintel/contracts';
import { findCycle, qaInputs } from './qa-inputs';

const files = { fileIds: ['f'] };

describe('qaInputs', () => {
  it('names questions by position, fills in answer types and maps chains to positions', () => {
    const { inputs, dependsOn } = qaInputs({
      files,
      questions: [{ question: 'a' }, { id: 'x', question: 'b', inputQuestionIds: ['1', '1'] }],
    });
    expect(inputs.questions.map((q) => [q.id, q.answerType.dataType, q.inputQuestionIds])).toEqual([
      ['1', 'STRING', []],
      ['x', 'STRING', ['1', '1']],
    ]);
    expect(dependsOn).toEqual([[], [0]]);
  });

  it('reports every problem at once', () => {
    try {
      qaInputs({
        files,
        questions: [
          { id: 'a', question: 'a', inputQuestionIds: ['nope'] },
          { id: 'a', question: 'b', answerType: { dataType: 'ENUM', enumValues: [' '] } },
        ],
      });
      throw new Error('expected a rejection');
    } catch (err) {
      expect((err as DomainError).details.map((d) => d.field)).toEqual([
        'questions[1].id',
        'questions[1].answerType.enumValues',
        'questions[0].inputQuestionIds[0]',
      ]);
    }
  });
});

describe('findCycle', () => {
  it('finds a cycle and its path', () => {
    expect(findCycle([[1], [2], [0]])).toEqual([0, 1, 2, 0]);
    expect(findCycle([[1], [2], []])).toBeNull();
    expect(findCycle([[], [0], [0, 1]])).toBeNull();
  });
});

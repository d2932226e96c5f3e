import {
  DomainError,
  type AnswerTypeDto,
  type CreateQaJobRequestDto,
  type ErrorDetail,
  type FilesInputDto,
  type JobLaunchConfigDto,
  type QuestionInputDto,
} from '@docintel/contracts';
import { answerTypeProblems, withDefaults } from '../answer-type';

/** A QA job's request as accepted: every question with its id, answer type and the questions it chains on. */
export interface QaInputs {
  files: FilesInputDto;
  questions: Array<QuestionInputDto & { id: string; answerType: AnswerTypeDto; inputQuestionIds: string[] }>;
  config?: JobLaunchConfigDto;
}

/**
 * The questions of a QA job with their ids (a question without one is named by its 1-based
 * position), checked: ids unique, inputQuestionIds naming other questions of the job, no cycles.
 * Returns the inputs as stored and, per question, the positions of the questions it chains on.
 */
export function qaInputs(req: CreateQaJobRequestDto): { inputs: QaInputs; dependsOn: number[][] } {
  const problems: ErrorDetail[] = [];
  const questions = req.questions.map((q, i) => ({
    ...q,
    id: q.id ?? String(i + 1),
    answerType: withDefaults(q.answerType),
    inputQuestionIds: q.inputQuestionIds ?? [],
  }));
  const position = new Map<string, number>();
  questions.forEach((q, i) => {
    const first = position.get(q.id);
    if (first !== undefined) problems.push({ field: `questions[${i}].id`, problem: `duplicates the id of questions[${first}]` });
    else position.set(q.id, i);
    problems.push(...answerTypeProblems(q.answerType, `questions[${i}].answerType`));
  });
  const dependsOn = questions.map((q, i) =>
    q.inputQuestionIds.flatMap((id, k) => {
      const at = position.get(id);
      if (at === undefined) {
        problems.push({
          field: `questions[${i}].inputQuestionIds[${k}]`,
          problem: `names no question of this job (${JSON.stringify(id)})`,
        });
        return [];
      }
      if (at === i) {
        problems.push({ field: `questions[${i}].inputQuestionIds[${k}]`, problem: 'names the question itself' });
        return [];
      }
      return [at];
    }),
  );
  if (!problems.length) {
    const cycle = findCycle(dependsOn);
    if (cycle)
      problems.push({
        field: `questions[${cycle[0]}].inputQuestionIds`,
        problem: `form a cycle: ${cycle.map((i) => questions[i].id).join(' -> ')}`,
      });
  }
  if (problems.length) throw DomainError.invalid(problems);
  return { inputs: { files: req.files, questions, config: req.config }, dependsOn: dependsOn.map((d) => [...new Set(d)]) };
}

/** A cycle of the dependency graph as a list of positions (first repeated at the end), or null. */
export function findCycle(edges: number[][]): number[] | null {
  const state = new Array<0 | 1 | 2>(edges.length).fill(0);
  const path: number[] = [];
  const visit = (n: number): number[] | null => {
    state[n] = 1;
    path.push(n);
    for (const next of edges[n]) {
      if (state[next] === 1) return [...path.slice(path.indexOf(next)), next];
      if (state[next] === 0) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state[n] = 2;
    return null;
  };
  for (let n = 0; n < edges.length; n++) {
    if (state[n] === 0) {
      const found = visit(n);
      if (found) return found;
    }
  }
  return null;
}

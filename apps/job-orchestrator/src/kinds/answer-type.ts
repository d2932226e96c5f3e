import { DEFAULT_ANSWER_TYPE, type AnswerTypeDto, type ErrorDetail } from '@docintel/contracts';

/** Problems of an answer type that the DTO's decorators cannot see. */
export function answerTypeProblems(type: AnswerTypeDto, field: string): ErrorDetail[] {
  if (type.dataType === 'ENUM' && !type.enumValues?.some((v) => v.trim())) {
    return [{ field: `${field}.enumValues`, problem: 'is required for ENUM: list the values the answer may take' }];
  }
  return [];
}

export const withDefaults = (type: AnswerTypeDto | undefined): AnswerTypeDto => ({ ...DEFAULT_ANSWER_TYPE, ...(type ?? {}) });

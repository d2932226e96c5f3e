import { toDataValue } from '@docintel/answering';
import type { AnswerTypeDto, DataValue } from '@docintel/contracts';

const ARTICLES = /\b(a|an|the)\b/g;

/** SQuAD's normalisation: lower case, no punctuation, no articles, single spaces. */
export const normalizeAnswer = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(ARTICLES, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether an answer matches the answer the user expected: the same value once both are read as the
 * answer type (12,500 and 12500.00; 14/03/2023 and 2023-03-14; yes and true), or the same text once
 * normalised. 1 or 0, with a sentence saying why.
 */
export function checkExpectedAnswer(
  expected: string,
  rawValue: string,
  value: DataValue | null,
  type: AnswerTypeDto,
): { validity: number; explanation: string } {
  if (!rawValue) return { validity: 0, explanation: `No answer was found; expected "${expected}".` };
  if (normalizeAnswer(expected) === normalizeAnswer(rawValue))
    return { validity: 1, explanation: 'The answer matches the expected answer.' };
  const wanted = type.dataType === 'STRING' ? null : toDataValue(expected, type).value;
  if (wanted && value && JSON.stringify(wanted) === JSON.stringify(value)) {
    return { validity: 1, explanation: 'The answer has the expected value.' };
  }
  return { validity: 0, explanation: `The answer "${rawValue}" differs from the expected "${expected}".` };
}

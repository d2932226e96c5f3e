import type { DataValue } from '@docintel/contracts';

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

const NUMBER = /-?\d+(?:[.,]\d+)?/;

/**
 * Whether an answer matches the answer the user expected: the same text once normalised, or the
 * same number, or the same date. 1 or 0, with a sentence saying why.
 */
export function checkExpectedAnswer(expected: string, rawValue: string, value: DataValue | null): { validity: number; explanation: string } {
  const e = normalizeAnswer(expected);
  if (!rawValue) return { validity: 0, explanation: `No answer was found; expected "${expected}".` };
  if (e === normalizeAnswer(rawValue)) return { validity: 1, explanation: 'The answer matches the expected answer.' };
  const typed = value?.longValue ?? value?.doubleValue;
  const expectedNumber = NUMBER.exec(expected.replace(/(\d),(\d{3})/g, '$1$2'));
  if (typed !== undefined && expectedNumber && Math.abs(Number(expectedNumber[0].replace(',', '.')) - typed) < 1e-9) {
    return { validity: 1, explanation: 'The answer has the expected value.' };
  }
  if (value?.dateValue && value.dateValue.startsWith(expected.trim().slice(0, 10))) {
    return { validity: 1, explanation: 'The answer is the expected date.' };
  }
  if (value?.boolValue !== undefined && ['yes', 'true', 'no', 'false'].includes(e)) {
    const ok = value.boolValue === (e === 'yes' || e === 'true');
    return { validity: ok ? 1 : 0, explanation: ok ? 'The answer is the expected one.' : `The answer differs from the expected "${expected}".` };
  }
  return { validity: 0, explanation: `The answer "${rawValue}" differs from the expected "${expected}".` };
}

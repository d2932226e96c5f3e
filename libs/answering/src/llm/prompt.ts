import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage, ReaderQuestion } from '../reader';
import { allowedEnumValues, decimalsOf } from './answer-schema';

/** A chat message, independent of the client library. */
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const SYSTEM_PROMPT = [
  'You answer a question about documents using only the passages given, never what you know otherwise.',
  'Reply with one JSON object that matches the schema you are given:',
  '- found: true only when the passages state the answer; false when they do not, or only hint at it.',
  '- value: the answer in the requested type; null when found is false.',
  '- explanation: one or two sentences for the user: where the answer was read, or why the passages do not give it.',
  '- citations: for each passage the answer was read from, its id and a quote copied character for character from',
  "  that passage's text: a short span that contains the answer. Quote only passage text (not the file name or",
  '  headings), do not shorten a quote with "...", and do not cite a passage that was not given. Empty when found is false.',
].join('\n');

/** The answer type in words, so that the model knows what `value` must hold. */
export function describeAnswerType(answerType: AnswerTypeDto): string {
  const many = answerType.multiValued;
  const decimals = decimalsOf(answerType);
  let what: string;
  switch (answerType.dataType) {
    case 'STRING':
      what = many ? 'texts, each as written in the passages' : 'a text, as written in the passage';
      break;
    case 'INT':
      what = many ? 'whole numbers' : 'a whole number';
      break;
    case 'FLOAT':
      what = `${many ? 'numbers' : 'a number'}${decimals === undefined ? '' : `, rounded to ${decimals} decimals`}`;
      break;
    case 'BOOL':
      what = many ? 'yes/no values (true or false)' : 'yes or no (true or false)';
      break;
    case 'DATE':
      what = many ? 'dates, each written YYYY-MM-DD' : 'a date, written YYYY-MM-DD';
      break;
    case 'ENUM': {
      const values = allowedEnumValues(answerType);
      const choice = values.length ? `: ${values.map((v) => JSON.stringify(v)).join(', ')}` : '';
      what = many
        ? `every value that applies, from${choice || ' a short list of categories'}`
        : `exactly one of${choice || ' a short list of categories'}`;
      break;
    }
  }
  return many ? `a list of ${what} (every value the passages give)` : what;
}

export function describePassage(p: ReaderPassage): string {
  const attributes = [`id=${JSON.stringify(p.id)}`, `file=${JSON.stringify(p.fileName)}`];
  if (p.headings.length) attributes.push(`section=${JSON.stringify(p.headings.join(' > '))}`);
  attributes.push(`kind=${JSON.stringify(p.nodeType)}`);
  return `<passage ${attributes.join(' ')}>\n${p.text}\n</passage>`;
}

/** The messages of the first request: instructions, then the question with its passages. */
export function buildMessages(question: ReaderQuestion, passages: ReaderPassage[]): PromptMessage[] {
  const parts = [`Question: ${question.question}`, `The answer must be ${describeAnswerType(question.answerType)}.`];
  if (question.guidelines?.trim()) parts.push(`Guidelines from the user:\n${question.guidelines.trim()}`);
  if (question.inputs?.length) {
    const earlier = question.inputs.map((i) => `- ${i.question} → ${i.found ? i.rawValue : '(not found)'}`);
    parts.push(`Answers to earlier questions, for context (cite only passages below):\n${earlier.join('\n')}`);
  }
  parts.push(`Passages (${passages.length}):\n\n${passages.map(describePassage).join('\n\n')}`);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

/** Sent after an answer whose citations could not be checked, with the model's answer before it. */
export function correctionMessage(problems: string[]): string {
  return [
    'Your answer cannot be used: ' + problems.join('; ') + '.',
    'Answer again. Cite only the passages given, by their ids, with quotes copied exactly from their text.',
    'If the passages do not state the answer, set found to false, value to null and citations to [].',
  ].join(' ');
}

/** Sent after a reply that was not JSON matching the schema. */
export function malformedMessage(problem: string): string {
  return `Your previous reply could not be used: ${problem}. Reply again with only one JSON object that matches the schema.`;
}

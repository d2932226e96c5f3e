import type { AnswerTypeDto, DataValue } from '@docintel/contracts';
import { notFound, type Citation, type Reader, type ReaderAnswer, type ReaderPassage, type ReaderQuestion } from '../reader';
import { answerSchema, answerValidator, type LlmAnswerOutput } from './answer-schema';
import type { EntitySchemaSpec } from '../tables/types';
import { checkCitations } from './citations';
import { LlmRowsReader, type EntityRowsReader, type RowsAnswer } from './llm-rows';
import type { LlmEndpoint } from './llm-endpoint';
import { buildMessages, correctionMessage, type PromptMessage } from './prompt';
import { typedValueOf } from './typed-value';

/**
 * Confidence of an LLM answer. Models state no calibrated probability, so it says only how well
 * the answer checked out: every citation found and the value read at the first try, or not.
 */
export const LLM_CONFIDENCE = { checked: 0.9, partlyChecked: 0.7 } as const;

type Verdict =
  | { kind: 'not-found'; explanation: string }
  | { kind: 'rejected'; problems: string[] }
  | { kind: 'accepted'; value: DataValue; rawValue: string; citations: Citation[]; explanation: string; problems: string[] };

/**
 * Answers from the retrieved passages with a chat model (ANSWERING_ENGINE=llm). The model is
 * given the passages with their ids and must reply JSON for a schema built from the answer type,
 * citing each passage it read from with an exact quote. The reply is checked: a citation must name
 * a passage given and its quote must occur in that passage; the quotes become the citation spans.
 * An answer with no citation that checks out is sent back once with what was wrong; if the second
 * answer fails too, the result is "not found" with the reason. Endpoint failures are retried by
 * LlmEndpoint and end in an LlmError.
 */
export class LlmReader implements Reader, EntityRowsReader {
  readonly name: string;
  private readonly rows: LlmRowsReader;

  constructor(private readonly endpoint: LlmEndpoint) {
    this.name = `llm:${endpoint.model}`;
    this.rows = new LlmRowsReader(endpoint);
  }

  /** Multi-dimensional extraction: the whole schema filled from the passages at once, every value cited. */
  readRows(schema: EntitySchemaSpec, passages: ReaderPassage[], signal?: AbortSignal): Promise<RowsAnswer> {
    return this.rows.readRows(schema, passages, signal);
  }

  async answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer> {
    signal?.throwIfAborted();
    if (!passages.length) return notFound('No passage of the documents matched the question, so the LLM was not asked.');
    const schema = answerSchema(
      question.answerType,
      passages.map((p) => p.id),
    );
    const validate = answerValidator(question.answerType);
    const messages = buildMessages(question, passages);

    const first = await this.endpoint.ask(messages, schema, validate, signal);
    let verdict = judge(first, passages, question.answerType);
    let corrected = false;
    if (verdict.kind === 'rejected') {
      const retry: PromptMessage[] = [
        ...messages,
        { role: 'assistant', content: JSON.stringify(first) },
        { role: 'user', content: correctionMessage(verdict.problems) },
      ];
      const second = await this.endpoint.ask(retry, schema, validate, signal);
      const again = judge(second, passages, question.answerType);
      if (again.kind === 'rejected') {
        return notFound(
          `The LLM's answer was not used because it could not be checked against the documents: ${again.problems.join('; ')}. ` +
            'It was asked once more and answered no better.',
        );
      }
      verdict = again;
      corrected = true;
    }
    if (verdict.kind === 'not-found') return notFound(verdict.explanation);
    const clean = !corrected && verdict.problems.length === 0;
    return {
      found: true,
      rawValue: verdict.rawValue,
      value: verdict.value,
      confidence: clean ? LLM_CONFIDENCE.checked : LLM_CONFIDENCE.partlyChecked,
      explanation: verdict.explanation,
      citations: verdict.citations,
    };
  }
}

/** Whether the model's reply can be used: its value read as the answer type, and at least one citation found. */
function judge(output: LlmAnswerOutput, passages: ReaderPassage[], answerType: AnswerTypeDto): Verdict {
  if (!output.found) {
    return { kind: 'not-found', explanation: output.explanation.trim() || 'The LLM found no answer in the passages.' };
  }
  const problems: string[] = [];
  const typed = typedValueOf(output.value, answerType);
  if (!typed.value) {
    problems.push(
      `found is true but the value ${JSON.stringify(output.value)} cannot be read as ${answerType.dataType}: ${typed.problems.join('; ')}`,
    );
  }
  const { valid, problems: citationProblems } = checkCitations(output.citations, passages);
  if (!valid.length) {
    problems.push(...(output.citations.length ? citationProblems : ['it cites no passage']));
  }
  if (!typed.value || !valid.length) return { kind: 'rejected', problems };
  return {
    kind: 'accepted',
    value: typed.value,
    rawValue: typed.rawValue,
    citations: valid,
    explanation: output.explanation.trim() || 'Read by the LLM from the passages cited.',
    problems: [...typed.problems, ...citationProblems],
  };
}

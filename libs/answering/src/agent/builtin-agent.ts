import type { AnswerTypeDto } from '@docintel/contracts';
import type { Reader, ReaderAnswer, ReaderPassage } from '../reader';
import { AgentTools, type ToolOutcome, type ToolPassage } from './agent-tools';
import { isFollowUp, retrievalQuery, userQuestion, type UserQuestion } from './conversation';
import { answerFromMetadata, type MetadataAnswer } from './document-metadata';
import { repairOutput } from './output-repair';
import { compileOutputSchema, type JsonSchema } from './output-schema';
import { bibliographicField, cuedQuery, cuedQuestion, preferSection, sectionCue } from './question-cues';
import { jsonValueOf, schemaFields, setAt, type SchemaField } from './schema-fields';
import type { SourceLedger } from './source-ledger';
import {
  AgentRunFailed,
  type AgentEngine,
  type AgentEvidence,
  type AgentRunRequest,
  type AgentRunResult,
  type AgentToolbox,
  type AgentTraceStep,
} from './types';

const STRING_ANSWER: AnswerTypeDto = { dataType: 'STRING', multiValued: false };
/** How much of the user's message goes into a field's search query, and into the reader's context. */
const CONTEXT_CHARS = 300;
/** Passages one search gives the reader: as many as a QA job reads, since the extractive reader is as good as the passages it ranks. */
const READER_PASSAGES = 40;
/** Passages searched for where a metadata value is written: it is found by its own words, near the top. */
const VALUE_PASSAGES = 10;
/** "Who wrote <title>?", "When was <title> published?": bibliographic once the title is known. */
const MAY_NAME_TITLE = /\b(?:wrote|written|authored|published|issued|signed|released)\b/i;

export const NO_ANSWER = 'No answer was found in the documents.';
const WITHOUT_MODEL = 'Answered without a language model, by the built-in planner (retrieval and the extractive reader)';

/**
 * The default agent engine: offline and deterministic, no language model. It plans nothing
 * clever: a text question is one search (through the same traced tools a model would use) read by
 * the extractive reader; an output schema is filled field by field, one typed question and one
 * search per field, until maxIterations searches are spent (the remaining fields are read from
 * the passages already found).
 *
 * Of the conversation it uses the last user message as the question, and the user turn before it
 * only when the new message is a follow-up ("and what was its revenue?"): that turn is added to
 * the search query and given to the reader as context. System and assistant turns are not read:
 * an extractive reader cannot follow instructions.
 */
export class BuiltinAgent implements AgentEngine {
  readonly name = 'builtin';

  constructor(private readonly reader: Reader) {}

  async run(
    request: AgentRunRequest,
    toolbox: AgentToolbox,
    trace: (step: AgentTraceStep) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<AgentRunResult> {
    const question = userQuestion(request.messages);
    const tools = new AgentTools(toolbox, trace, signal);
    return request.outputSchema
      ? this.fill(request.outputSchema, question, request.maxIterations, tools, signal)
      : this.answerText(question, request.maxIterations, tools, signal);
  }

  private async answerText(q: UserQuestion, maxIterations: number, tools: AgentTools, signal?: AbortSignal): Promise<AgentRunResult> {
    if (maxIterations < 1)
      return { answer: NO_ANSWER, explanation: `${WITHOUT_MODEL}: max_iterations allowed no search.`, evidence: [], iterations: 0 };
    const fromMetadata = await this.answerFromMetadata(q, tools);
    if (fromMetadata) return fromMetadata;
    const followUp = !!q.previous && isFollowUp(q.message);
    // A follow-up's subject is in the turn before it ("And who funded it?" after a question about a paper).
    const cue = sectionCue(q.message);
    const query = cuedQuery(retrievalQuery(q), cue);
    const search = await tools.call('search_passages', { query: query.slice(0, 2000), limit: READER_PASSAGES }, 1);
    const passages = preferSection(readerPassages(search, tools.ledger), cue);
    const answer = await this.reader.answer(
      { question: cuedQuestion(q.message, cue), answerType: STRING_ANSWER, ...(followUp ? { guidelines: q.previous } : {}) },
      passages,
      signal,
    );
    if (!answer.found) {
      const why = search.ok ? answer.explanation : `The search failed: ${search.error}`;
      return {
        answer: NO_ANSWER,
        explanation: `${WITHOUT_MODEL}: no answer was found in the documents. ${why}`.trim(),
        evidence: [],
        iterations: 1,
      };
    }
    const evidence = citedEvidence(answer, tools.ledger);
    return {
      answer: answer.rawValue,
      explanation: `${WITHOUT_MODEL}: the answer was read from ${fileNames(evidence)}.`,
      evidence,
      iterations: 1,
    };
  }

  /**
   * A question about the document itself (its title, authors, date) is answered from the
   * metadata indexing found (list_files), each value cited at the node that writes it (a search
   * for the value). Undefined when the question is not such a question, or the metadata has no
   * value the documents show: the reader then reads the documents as for any question.
   */
  private async answerFromMetadata(q: UserQuestion, tools: AgentTools): Promise<AgentRunResult | undefined> {
    // Only a question that reads as bibliographic costs the list_files call.
    if (!bibliographicField(q.message) && !MAY_NAME_TITLE.test(q.message)) return undefined;
    const listed = await tools.call('list_files', {}, 1);
    if (!listed.ok) return undefined;
    const files = (listed.result as { files: Array<{ fileId: string; name: string }> }).files;
    const sources = files.flatMap((f) => {
      const ontologies = tools.ontologies.get(f.fileId);
      return ontologies ? [{ fileId: f.fileId, fileName: f.name, ontologies }] : [];
    });
    const found: MetadataAnswer<ReaderPassage> | undefined = await answerFromMetadata(q.message, sources, async (query, fileId) =>
      readerPassages(await tools.call('search_passages', { query, fileIds: [fileId], limit: VALUE_PASSAGES }, 1), tools.ledger),
    );
    if (!found) return undefined;
    const evidence: AgentEvidence[] = [];
    for (const { passage, span } of found.located) {
      const source = tools.ledger.get(passage.id);
      if (source?.kind === 'passage') evidence.push({ kind: 'passage', passage: source.passage, start: span.start, end: span.end });
    }
    // A date is answered as the document writes it; a title or a name as the metadata spells it.
    const values = found.located.map(({ value, passage, span }) =>
      found.field === 'publicationDate' ? passage.text.slice(span.start, span.end) : value,
    );
    return {
      answer: values.join('; '),
      explanation: `${WITHOUT_MODEL}: ${found.explanation}`,
      evidence,
      iterations: 1,
    };
  }

  private async fill(
    schema: JsonSchema,
    q: UserQuestion,
    maxIterations: number,
    tools: AgentTools,
    signal?: AbortSignal,
  ): Promise<AgentRunResult> {
    const check = compileOutputSchema(schema);
    const fields = schemaFields(schema);
    if (!fields.length) {
      throw new AgentRunFailed(
        'The built-in planner fills an object schema field by field, and this output schema has no field it can read ' +
          '(a string, number, integer, boolean or enum property, or a list of them)',
      );
    }
    const context = q.message.slice(0, CONTEXT_CHARS);
    const found = new Map<string, ReaderPassage>();
    const output: Record<string, unknown> = {};
    const evidence: AgentEvidence[] = [];
    const missing: SchemaField[] = [];
    let searches = 0;

    for (const field of fields) {
      // Each field is a read of up to maxIterations x READER_PASSAGES passages: between fields
      // the process answers its other messages, and a run past its budget (the caller's signal) stops.
      await yieldToEventLoop();
      signal?.throwIfAborted();
      let passages: ReaderPassage[];
      if (searches < maxIterations) {
        searches++;
        passages = readerPassages(
          await tools.call('search_passages', { query: `${field.question} ${context}`, limit: READER_PASSAGES }, searches),
          tools.ledger,
        );
        for (const p of passages) if (!found.has(p.id)) found.set(p.id, p);
      } else {
        // Out of searches: what was found for the other fields is all there is.
        passages = [...found.values()];
      }
      const answer = passages.length
        ? await this.reader.answer({ question: field.question, answerType: field.answerType, guidelines: context }, passages, signal)
        : undefined;
      if (!answer?.found || !answer.value) {
        missing.push(field);
        continue;
      }
      setAt(output, field.path, jsonValueOf(answer.value, field));
      evidence.push(...citedEvidence(answer, tools.ledger));
    }

    let answer: unknown = output;
    if (check(answer).problems.length) answer = repairOutput(answer, schema, check);
    const { problems } = check(answer);
    if (problems.length) throw new AgentRunFailed('The answer read from the documents does not match the output schema', problems);

    const filled = fields.length - missing.length;
    const notFound = missing.length ? ` Not found in the documents: ${missing.map((f) => f.path.join('.')).join(', ')}.` : '';
    const capped =
      searches < fields.length
        ? ` max_iterations allowed ${searches} searches for ${fields.length} fields; the others were read from the passages already found.`
        : '';
    return {
      answer: answer as Record<string, unknown>,
      explanation: `${WITHOUT_MODEL}: ${filled} of ${fields.length} fields were read${filled ? ` from ${fileNames(evidence)}` : ''}.${notFound}${capped}`,
      evidence,
      iterations: searches,
    };
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The passages a search returned, for the reader. Their id is the handle: unique within the run
 * even across files, and the key back to the passage in the ledger.
 */
function readerPassages(outcome: ToolOutcome, ledger: SourceLedger): ReaderPassage[] {
  if (!outcome.ok) return [];
  const passages: ReaderPassage[] = [];
  for (const p of (outcome.result as { passages: ToolPassage[] }).passages) {
    const source = ledger.get(p.handle);
    if (source?.kind !== 'passage') continue;
    const { passage } = source;
    passages.push({
      id: p.handle,
      fileId: passage.fileId,
      fileName: passage.fileName,
      nodeType: passage.nodeType,
      text: passage.text,
      headings: passage.headings,
      score: passage.score,
    });
  }
  return passages;
}

/** The reader's citations as evidence: spans of the passages its ids (handles) name. */
function citedEvidence(answer: ReaderAnswer, ledger: SourceLedger): AgentEvidence[] {
  const evidence: AgentEvidence[] = [];
  for (const c of answer.citations) {
    const source = ledger.get(c.passageId);
    if (source?.kind === 'passage') evidence.push({ kind: 'passage', passage: source.passage, start: c.start, end: c.end });
  }
  return evidence;
}

function fileNames(evidence: AgentEvidence[]): string {
  const names = [...new Set(evidence.map((e) => (e.kind === 'passage' ? e.passage.fileName : e.statement.documentName)))];
  return names.length ? names.join(', ') : 'the documents';
}

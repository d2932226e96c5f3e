import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatToolDefinition } from '../llm/llm-endpoint';
import type { JsonSchema } from './output-schema';
import type { AgentToolDefinition } from './tool-definitions';
import type { AgentFile, AgentTurn } from './types';

/** The tool a model ends its run with. */
export const FINAL_ANSWER = 'final_answer';

/** What final_answer's arguments hold. */
export interface FinalAnswerArgs {
  /** false: the documents do not give the answer (no sources then). Absent counts as true. */
  found?: unknown;
  answer: unknown;
  explanation?: unknown;
  sources?: unknown;
}

const FILES_NAMED = 50;

export function systemPrompt(files: AgentFile[], maxIterations: number, outputSchema: boolean): string {
  const named = files
    .slice(0, FILES_NAMED)
    .map((f) => `- ${f.name} (fileId ${f.fileId})`)
    .join('\n');
  const more = files.length > FILES_NAMED ? `\n- … and ${files.length - FILES_NAMED} more (list_files names them)` : '';
  return [
    "You answer the user's questions about their documents, using only what the tools return from those documents,",
    'never what you know otherwise. If the documents do not give the answer, say so.',
    '',
    'Tools: search_passages searches the documents; read_node reads a passage with its neighbours; list_files lists the',
    'files and what indexing found in them; ask_questions and extract_metadata run the document engine over the files.',
    'Every passage and statement they return has a handle such as S3. Cite the handles the answer was read from.',
    '',
    `When you know the answer, call ${FINAL_ANSWER} with the answer, a one- or two-sentence explanation of where it was`,
    'found, and the handles of its sources. An answer must cite at least one handle. If the documents do not give the',
    `answer, call ${FINAL_ANSWER} with found set to false, no sources, and say why in the explanation.`,
    'For the title, authors or date of a document, list_files gives the metadata indexing found; search for the value',
    'and cite the passage that writes it. For a follow-up ("and who funded it?"), "it" is what the earlier turns were',
    'about. Facts such as funding (acknowledgements), affiliations (under the authors), the abstract and the conclusion',
    'are stated in their own sections: search with the words of those sections.',
    outputSchema ? `The answer must be a JSON object valid against the schema of ${FINAL_ANSWER}'s "answer" parameter.` : '',
    `You have at most ${maxIterations} turns; on the last one only ${FINAL_ANSWER} is offered.`,
    '',
    `The files (${files.length}):`,
    named + more || '(none)',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}

/** The tools in the format both providers accept. */
export function chatTools(tools: readonly AgentToolDefinition[]): ChatToolDefinition[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/**
 * final_answer: the answer (text, or an object of the output schema), an explanation and the
 * handles cited. The output schema's `$defs`/`definitions` move to the top, so that its local
 * `$ref`s still resolve from the root of the tool's parameters.
 */
export function finalAnswerTool(outputSchema?: JsonSchema): ChatToolDefinition {
  let answer: JsonSchema = { type: 'string', description: 'The answer, in words, for the user.' };
  let defs: JsonSchema = {};
  if (outputSchema) {
    const { $schema: _s, $id: _i, $defs, definitions, ...rest } = outputSchema;
    answer = { ...rest, description: (rest.description as string | undefined) ?? 'The answer, valid against this schema.' };
    defs = { ...($defs ? { $defs } : {}), ...(definitions ? { definitions } : {}) };
  }
  return {
    type: 'function',
    function: {
      name: FINAL_ANSWER,
      description:
        'Give the final answer, with the handles of the passages and statements it was read from. This ends the conversation turn.',
      parameters: {
        type: 'object',
        properties: {
          found: {
            type: 'boolean',
            description: 'false when the documents do not give the answer (then no sources); true otherwise.',
          },
          answer,
          explanation: {
            type: 'string',
            description: 'One or two sentences: where the answer was found, or why the documents do not give it.',
          },
          sources: { type: 'array', items: { type: 'string' }, description: 'The handles cited, e.g. ["S1", "S4"].' },
        },
        required: ['answer', 'explanation', 'sources'],
        ...defs,
      },
    },
  };
}

/** The conversation for the model: our instructions first, the caller's system turns after them. */
export function conversation(system: string, turns: AgentTurn[]): BaseMessage[] {
  const callerSystem = turns.filter((t) => t.role === 'system').map((t) => t.content.trim());
  const instructions = callerSystem.length ? `${system}\n\nThe caller's instructions:\n${callerSystem.join('\n')}` : system;
  const messages: BaseMessage[] = [new SystemMessage(instructions)];
  for (const turn of turns) {
    if (turn.role === 'user') messages.push(new HumanMessage(turn.content));
    else if (turn.role === 'assistant') messages.push(new AIMessage(turn.content));
  }
  return messages;
}

export function repairRequest(problems: string[]): string {
  return (
    `Your answer could not be used: ${problems.join('; ')}. ` +
    `Call ${FINAL_ANSWER} again with a corrected answer, valid against its schema (leave out nothing it requires).`
  );
}

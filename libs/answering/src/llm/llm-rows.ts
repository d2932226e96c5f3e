import Ajv, { type ValidateFunction } from 'ajv';
import type { Citation, ReaderPassage } from '../reader';
import type { EntityColumnSpec, EntitySchemaSpec, EntityValue } from '../tables/types';
import { matchEnum } from '../typed/enums';
import type { JsonSchema } from './answer-schema';
import { checkCitations } from './citations';
import type { LlmEndpoint } from './llm-endpoint';
import { describePassage, type PromptMessage } from './prompt';

/** A cell the model filled, checked: its value typed as the column says, and the span it was read from. */
export interface RowsAnswerCell {
  columnKey: string;
  value: EntityValue | null;
  explanation: string;
  /** The checked quote; empty when the cell has no value. */
  citations: Citation[];
}

export interface RowsAnswer {
  rows: Array<{ cells: RowsAnswerCell[] }>;
  explanation: string;
}

/** A reader that can fill a whole schema at once: one row per entity the passages describe. */
export interface EntityRowsReader {
  readRows(schema: EntitySchemaSpec, passages: ReaderPassage[], signal?: AbortSignal): Promise<RowsAnswer>;
}

export const isEntityRowsReader = (reader: unknown): reader is EntityRowsReader =>
  typeof (reader as Partial<EntityRowsReader> | null)?.readRows === 'function';

interface LlmRowsOutput {
  rows: Array<{ cells: Array<{ columnKey: string; value: string | number | boolean | null; passageId: string; quote: string }> }>;
  explanation: string;
}

/** Rows a reply may hold: beyond this the rest is dropped (and the explanation says so). */
export const MAX_LLM_ROWS = 200;

const ROWS_PROMPT = [
  'You fill a table from documents using only the passages given, never what you know otherwise.',
  'Reply with one JSON object that matches the schema you are given:',
  '- rows: one row per entity the passages describe (for example one per arm of a trial, one per product).',
  '  Table rows in the passages (kind="row", cells separated by " | ") are usually one entity each.',
  '- cells: for each column of a row whose value the passages state: the columnKey, the value in the',
  "  column's type, the id of the passage it was read from and a quote copied character for character from",
  '  that passage that contains the value. Leave out the columns the passages do not state.',
  '- explanation: one or two sentences on where the rows were read.',
].join('\n');

function columnLine(c: EntityColumnSpec): string {
  const parts = [`- ${c.key}: ${c.label}`, `type ${c.type === 'UNSPECIFIED' ? 'STRING' : c.type}`];
  if (c.role !== 'UNSPECIFIED') parts.push(`role ${c.role}`);
  if (c.isRowKey) parts.push('identifies the row');
  if (c.allowedValues?.length) parts.push(`one of ${c.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`);
  if (c.description) parts.push(c.description);
  return parts.join('; ');
}

/** The JSON Schema of the reply: strict-mode compatible (every property required, no extras). */
export function rowsSchema(schema: EntitySchemaSpec, passageIds: string[]): JsonSchema {
  const passageId: JsonSchema = { type: 'string', description: 'The id of the passage quoted.' };
  if (passageIds.length) passageId.enum = [...new Set(passageIds)];
  return {
    type: 'object',
    properties: {
      rows: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            cells: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  columnKey: { type: 'string', enum: schema.columns.map((c) => c.key) },
                  value: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
                  passageId,
                  quote: { type: 'string', description: 'Words copied exactly from that passage, containing the value.' },
                },
                required: ['columnKey', 'value', 'passageId', 'quote'],
                additionalProperties: false,
              },
            },
          },
          required: ['cells'],
          additionalProperties: false,
        },
      },
      explanation: { type: 'string' },
    },
    required: ['rows', 'explanation'],
    additionalProperties: false,
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction<LlmRowsOutput>>();

function validatorFor(schema: EntitySchemaSpec): ValidateFunction<LlmRowsOutput> {
  const json = rowsSchema(schema, []);
  const key = JSON.stringify(json);
  let validate = validators.get(key);
  if (!validate) {
    if (validators.size >= 100) validators.delete(validators.keys().next().value as string);
    validate = ajv.compile<LlmRowsOutput>(json);
    validators.set(key, validate);
  }
  return validate;
}

/** The model's value read as the column's type; null with the reason when it is not one. */
export function typedCellValue(
  column: EntityColumnSpec,
  value: string | number | boolean | null,
): { value: EntityValue | null; problem?: string } {
  if (value === null || value === '') return { value: null };
  if (column.allowedValues?.length) {
    const match = matchEnum(String(value), column.allowedValues);
    return match ? { value: match.value } : { value: null, problem: `${JSON.stringify(value)} is none of the allowed values` };
  }
  switch (column.type) {
    case 'INT':
    case 'FLOAT': {
      const n = typeof value === 'number' ? value : Number(String(value).replace(/[,\s]/g, ''));
      if (!Number.isFinite(n)) return { value: null, problem: `${JSON.stringify(value)} is not a number` };
      return { value: column.type === 'INT' ? Math.round(n) : n };
    }
    case 'BOOL':
      if (typeof value === 'boolean') return { value };
      return /^(true|yes)$/i.test(String(value))
        ? { value: true }
        : /^(false|no)$/i.test(String(value))
          ? { value: false }
          : { value: null, problem: `${JSON.stringify(value)} is not true or false` };
    default:
      return { value: String(value) };
  }
}

/**
 * Fills a schema from passages with a chat model (ANSWERING_ENGINE=llm). Every value must come with
 * a quote found in the passage it names: a value whose quote does not check out, or that is not of
 * the column's type, is left empty with the reason, so every value shown cites a document node.
 */
export class LlmRowsReader implements EntityRowsReader {
  constructor(private readonly endpoint: LlmEndpoint) {}

  async readRows(schema: EntitySchemaSpec, passages: ReaderPassage[], signal?: AbortSignal): Promise<RowsAnswer> {
    signal?.throwIfAborted();
    if (!passages.length) return { rows: [], explanation: 'No passage of the file matched the schema, so the LLM was not asked.' };
    const about = [schema.name, schema.description].filter(Boolean).join(': ');
    const messages: PromptMessage[] = [
      { role: 'system', content: ROWS_PROMPT },
      {
        role: 'user',
        content: [
          `Rows of: ${about}`,
          `Columns:\n${schema.columns.map(columnLine).join('\n')}`,
          `Passages (${passages.length}):\n\n${passages.map(describePassage).join('\n\n')}`,
        ].join('\n\n'),
      },
    ];
    const output = await this.endpoint.ask(
      messages,
      rowsSchema(
        schema,
        passages.map((p) => p.id),
      ),
      validatorFor(schema),
      signal,
    );
    const columns = new Map(schema.columns.map((c) => [c.key, c]));
    const rows = output.rows.slice(0, MAX_LLM_ROWS).map((row) => ({
      cells: schema.columns.map((column): RowsAnswerCell => {
        const given = row.cells.find((c) => c.columnKey === column.key);
        if (!given || given.value === null)
          return { columnKey: column.key, value: null, explanation: 'The passages do not state it.', citations: [] };
        const typed = typedCellValue(columns.get(column.key)!, given.value);
        if (typed.value === null)
          return { columnKey: column.key, value: null, explanation: `Not used: ${typed.problem ?? 'no value'}.`, citations: [] };
        const { valid, problems } = checkCitations([{ passageId: given.passageId, quote: given.quote }], passages);
        if (!valid.length)
          return {
            columnKey: column.key,
            value: null,
            explanation: `Not used, as it cites nothing in the documents: ${problems.join('; ')}.`,
            citations: [],
          };
        const passage = passages.find((p) => p.id === given.passageId)!;
        return {
          columnKey: column.key,
          value: typed.value,
          explanation: `Read in ${passage.fileName}: "${given.quote.trim()}".`,
          citations: valid,
        };
      }),
    }));
    const dropped = output.rows.length > MAX_LLM_ROWS ? ` ${output.rows.length - MAX_LLM_ROWS} more rows were left out.` : '';
    return { rows: rows.filter((r) => r.cells.some((c) => c.value !== null)), explanation: `${output.explanation}${dropped}`.trim() };
  }
}

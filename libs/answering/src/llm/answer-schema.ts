import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { AnswerTypeDto } from '@docintel/contracts';

/** A JSON Schema, as sent to the model and compiled by Ajv. */
export type JsonSchema = Record<string, unknown>;

/** One value of an answer, as the model writes it in JSON. */
export type LlmScalar = string | number | boolean;

/** What the model must reply: the object the answer schema describes. */
export interface LlmAnswerOutput {
  found: boolean;
  value: LlmScalar | LlmScalar[] | null;
  explanation: string;
  citations: LlmCitationOutput[];
}

export interface LlmCitationOutput {
  passageId: string;
  quote: string;
}

/** The name the schema is sent under (the json_schema name, or the function's name). */
export const ANSWER_SCHEMA_NAME = 'answer';

const ISO_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const DECIMALS: Record<string, number> = {
  ZERO_DECIMALS: 0,
  ONE_DECIMAL: 1,
  TWO_DECIMALS: 2,
  THREE_DECIMALS: 3,
  FOUR_DECIMALS: 4,
  FIVE_DECIMALS: 5,
};

/** The decimals a FLOAT answer is rounded to, if the answer type says. */
export const decimalsOf = (answerType: AnswerTypeDto): number | undefined =>
  answerType.decimalPrecision ? DECIMALS[answerType.decimalPrecision] : undefined;

/** The values an ENUM answer may take: enumValues less rejectedEnumValues. Empty: any text. */
export function allowedEnumValues(answerType: AnswerTypeDto): string[] {
  const rejected = new Set(answerType.rejectedEnumValues ?? []);
  return [...new Set(answerType.enumValues ?? [])].filter((v) => !rejected.has(v));
}

/** The schema of one value of the answer type, with a description the model reads. */
export function valueItemSchema(answerType: AnswerTypeDto): JsonSchema {
  switch (answerType.dataType) {
    case 'STRING':
      return { type: 'string', description: 'The answer as written in the passage, as short as possible.' };
    case 'INT':
      return { type: 'integer', description: 'A whole number: digits only, no units, no thousands separators.' };
    case 'FLOAT': {
      const decimals = decimalsOf(answerType);
      const rounding = decimals === undefined ? '' : ` Rounded to ${decimals} decimal${decimals === 1 ? '' : 's'}.`;
      return { type: 'number', description: `A number with a dot as decimal separator, no units, no thousands separators.${rounding}` };
    }
    case 'BOOL':
      return { type: 'boolean', description: 'true or false.' };
    case 'DATE':
      return { type: 'string', pattern: ISO_DATE_PATTERN, description: 'A calendar date written YYYY-MM-DD.' };
    case 'ENUM': {
      const values = allowedEnumValues(answerType);
      return values.length
        ? { type: 'string', enum: values, description: 'Exactly one of the allowed values.' }
        : { type: 'string', description: 'The category, as short as possible.' };
    }
  }
}

/** The schema of `value`: one value or a list of them, or null when nothing was found. */
export function valueSchema(answerType: AnswerTypeDto): JsonSchema {
  const item = valueItemSchema(answerType);
  const typed = answerType.multiValued ? { type: 'array', items: item, description: 'Every value the passages give, each once.' } : item;
  return { anyOf: [typed, { type: 'null' }], description: 'The answer; null when found is false.' };
}

/**
 * The JSON Schema the model's reply must match. It keeps to what OpenAI's strict structured
 * outputs accept (every property required, no additional properties, no `format`), so that it can
 * be sent as it is. `passageIds`, when given, restrict citations to the passages sent: constrained
 * decoders then cannot invent an id. The validator is compiled without them, so that an unknown id
 * is a citation problem (a corrective retry, then "not found") rather than a broken reply.
 */
export function answerSchema(answerType: AnswerTypeDto, passageIds?: string[]): JsonSchema {
  const passageId: JsonSchema = { type: 'string', description: 'The id of the passage quoted.' };
  if (passageIds?.length) passageId.enum = [...new Set(passageIds)];
  return {
    type: 'object',
    description: 'An answer read from the passages, with the quotes it was read from.',
    properties: {
      found: { type: 'boolean', description: 'true only when the passages state the answer.' },
      value: valueSchema(answerType),
      explanation: { type: 'string', description: 'One or two sentences: where the answer was read, or why the passages do not give it.' },
      citations: {
        type: 'array',
        description: 'The passages the answer was read from; empty when found is false.',
        items: {
          type: 'object',
          properties: {
            passageId,
            quote: { type: 'string', description: 'Words copied exactly from that passage, containing the answer.' },
          },
          required: ['passageId', 'quote'],
          additionalProperties: false,
        },
      },
    },
    required: ['found', 'value', 'explanation', 'citations'],
    additionalProperties: false,
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction<LlmAnswerOutput>>();
const MAX_CACHED_VALIDATORS = 200;

/** A validator of replies for the answer type (compiled once per distinct answer type). */
export function answerValidator(answerType: AnswerTypeDto): ValidateFunction<LlmAnswerOutput> {
  const schema = answerSchema(answerType);
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    if (validators.size >= MAX_CACHED_VALIDATORS) validators.delete(validators.keys().next().value as string);
    validate = ajv.compile<LlmAnswerOutput>(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** Ajv's errors in one line: "/value must be integer; /citations/0 must have required property 'quote'". */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // anyOf reports every branch; its own summary says enough.
    if (e.keyword === 'type' && e.params.type === 'null') continue;
    seen.add(
      `${e.instancePath || '(the reply)'} ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? ` (${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})` : ''}`,
    );
  }
  return [...seen].join('; ') || 'it does not match the schema';
}

import { HookPoints, type TriggerDto, type TriggerId } from '@docintel/contracts';
import { FILTER_LIMITS } from './filter-limits';

/**
 * What a filter string may not contain: C0 control characters other than tab, line feed and
 * carriage return, DEL, and unpaired surrogates (the `u` flag makes a surrogate pair one code
 * point, so only a lone half matches). PostgreSQL's jsonb refuses NUL and unpaired surrogates,
 * and the others have no place in a media type, a node type or a pattern.
 */
export const FILTER_STRING_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\uD800-\\uDFFF]*$';

const stringList = (description: string) => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: FILTER_LIMITS.maxStringLength, pattern: FILTER_STRING_PATTERN },
  uniqueItems: true,
  maxItems: FILTER_LIMITS.maxItems,
  description,
});
const bytes = (description: string) => ({ type: 'integer', minimum: 0, description });

const FILTER_KEYS = {
  mime_types: stringList('Run only for files of these media types ("image/*" matches every image type). Empty or absent: all.'),
  exclude_mime_types: stringList('Never run for files of these media types ("image/*" allowed).'),
  node_types: stringList('Run only on nodes of these types (paragraph, table, formula, ...).'),
  classifications: stringList('Run only on nodes carrying one of these classifications.'),
  content_patterns: stringList(
    `Run only on nodes whose text matches one of these regular expressions: RE2 syntax (no lookahead, lookbehind or backreferences), case-sensitive unless (?i), matched anywhere in the first ${FILTER_LIMITS.maxMatchedTextLength} characters of the text.`,
  ),
  min_file_size: bytes('Run only for files of at least this many bytes.'),
  max_file_size: bytes('Run only for files of at most this many bytes.'),
} as const;

type FilterKey = keyof typeof FILTER_KEYS;

function filterSchema(triggerId: TriggerId, keys: FilterKey[]): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://docintel.dev/schemas/rules/${triggerId}.json`,
    title: `${triggerId} filter`,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(keys.map((k) => [k, FILTER_KEYS[k]])),
    // Not expressible in JSON Schema, checked beside it: the size of the whole filter as JSON.
    $comment: `The filter serialised as JSON is at most ${FILTER_LIMITS.maxFilterBytes} bytes.`,
  };
}

export interface TriggerDefinition extends TriggerDto {
  schema: Record<string, unknown>;
}

/** The built-in triggers. A trigger is code; its filter schema says what a rule may ask of it. */
export const TRIGGERS: Record<TriggerId, TriggerDefinition> = {
  corpus_parsing: {
    trigger_id: 'corpus_parsing',
    description: 'Parses a new or re-parsed file into its node tree. Critical: its failure fails the indexation.',
    hook_points: [HookPoints.rootNodeCreated],
    execution_mode: 'critical',
    schema: filterSchema('corpus_parsing', ['mime_types', 'exclude_mime_types']),
  },
  node_embedding: {
    trigger_id: 'node_embedding',
    description: 'Embeds the text of each batch of new nodes for semantic search. Asynchronous: retried, never fails the file.',
    hook_points: [HookPoints.nodeBatchCreated],
    execution_mode: 'asynchronous',
    schema: filterSchema('node_embedding', [
      'mime_types',
      'exclude_mime_types',
      'node_types',
      'classifications',
      'content_patterns',
      'min_file_size',
      'max_file_size',
    ]),
  },
  formula_augmentation: {
    trigger_id: 'formula_augmentation',
    description: 'Adds a normalised LaTeX form and a plain-text reading to formula nodes. Asynchronous: retried, never fails the file.',
    hook_points: [HookPoints.nodeUpdated],
    execution_mode: 'asynchronous',
    schema: filterSchema('formula_augmentation', [
      'mime_types',
      'exclude_mime_types',
      'node_types',
      'content_patterns',
      'min_file_size',
      'max_file_size',
    ]),
  },
};

export function findTrigger(id: string): TriggerDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(TRIGGERS, id) ? TRIGGERS[id as TriggerId] : undefined;
}

export function triggerSummary(t: TriggerDefinition): TriggerDto {
  return { trigger_id: t.trigger_id, description: t.description, hook_points: t.hook_points, execution_mode: t.execution_mode };
}

import { HookPoints, type TriggerDto, type TriggerId } from '@docintel/contracts';

const stringList = (description: string) => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  uniqueItems: true,
  description,
});
const bytes = (description: string) => ({ type: 'integer', minimum: 0, description });

const FILTER_KEYS = {
  mime_types: stringList('Run only for files of these media types ("image/*" matches every image type). Empty or absent: all.'),
  exclude_mime_types: stringList('Never run for files of these media types ("image/*" allowed).'),
  node_types: stringList('Run only on nodes of these types (paragraph, table, formula, ...).'),
  classifications: stringList('Run only on nodes carrying one of these classifications.'),
  content_patterns: stringList('Run only on nodes whose text matches one of these regular expressions (JavaScript syntax, case-sensitive unless (?i) flags are written as [Aa]).'),
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

import type { JsonSchema } from './output-schema';

/**
 * The agent's tools as a model sees them: a name, what it does, and a JSON Schema of its
 * arguments. The same schemas validate every call before it runs, whoever made it (a model or
 * the built-in planner), and fill in the defaults.
 */

export const TOOL_DATA_TYPES = ['STRING', 'INT', 'FLOAT', 'BOOL', 'DATE'] as const;
export type ToolDataType = (typeof TOOL_DATA_TYPES)[number];

export const TOOL_LIMITS = {
  searchLimit: 50,
  defaultSearchLimit: 8,
  around: 5,
  questions: 20,
  metas: 20,
  queryChars: 2000,
} as const;

export interface SearchPassagesArgs {
  query: string;
  fileIds?: string[];
  limit: number;
}

export interface ReadNodeArgs {
  fileId: string;
  nodeId: string;
  before: number;
  after: number;
}

export type ListFilesArgs = Record<string, never>;

export interface AskQuestionsArgs {
  questions: Array<{ question: string; dataType: ToolDataType; multiValued: boolean }>;
  fileIds?: string[];
}

export interface ExtractMetadataArgs {
  metas: Array<{ meta: string; description?: string; dataType: ToolDataType; multiValued: boolean }>;
  fileIds?: string[];
}

export interface ToolArgs {
  search_passages: SearchPassagesArgs;
  read_node: ReadNodeArgs;
  list_files: ListFilesArgs;
  ask_questions: AskQuestionsArgs;
  extract_metadata: ExtractMetadataArgs;
}

export type AgentToolName = keyof ToolArgs;

export interface AgentToolDefinition {
  name: AgentToolName;
  description: string;
  parameters: JsonSchema;
}

const fileIds: JsonSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  maxItems: 1000,
  description: 'Only these files (fileId from list_files or a passage); omit for all files.',
};

const dataType: JsonSchema = {
  type: 'string',
  enum: [...TOOL_DATA_TYPES],
  default: 'STRING',
  description: 'The type of the answer; dates are read as YYYY-MM-DD.',
};

const multiValued: JsonSchema = { type: 'boolean', default: false, description: 'A list of values instead of one.' };

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const AGENT_TOOLS: readonly AgentToolDefinition[] = [
  {
    name: 'search_passages',
    description:
      'Search the documents (keywords and meaning). Returns the best passages, each with a handle such as "S3" to cite, ' +
      'its file, the headings above it and its node id (for read_node).',
    parameters: object(
      {
        query: { type: 'string', minLength: 1, maxLength: TOOL_LIMITS.queryChars, description: 'What to look for, in words.' },
        fileIds,
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: TOOL_LIMITS.searchLimit,
          default: TOOL_LIMITS.defaultSearchLimit,
          description: 'How many passages, best first.',
        },
      },
      ['query'],
    ),
  },
  {
    name: 'read_node',
    description: 'Read a passage with the passages just before and after it in the document, each with a handle to cite.',
    parameters: object(
      {
        fileId: { type: 'string', minLength: 1 },
        nodeId: { type: 'string', minLength: 1, description: 'The nodeId of a passage.' },
        before: { type: 'integer', minimum: 0, maximum: TOOL_LIMITS.around, default: 1, description: 'Passages before it.' },
        after: { type: 'integer', minimum: 0, maximum: TOOL_LIMITS.around, default: 1, description: 'Passages after it.' },
      },
      ['fileId', 'nodeId'],
    ),
  },
  {
    name: 'list_files',
    description: 'List the files you can read, with what indexing found in each (keyphrases, entities, metadata).',
    parameters: object({}),
  },
  {
    name: 'ask_questions',
    description:
      "Ask the document engine's question answering to answer questions over the files. Each answer comes with the " +
      'handles of the statements it was read from.',
    parameters: object(
      {
        questions: {
          type: 'array',
          minItems: 1,
          maxItems: TOOL_LIMITS.questions,
          items: object({ question: { type: 'string', minLength: 1, maxLength: TOOL_LIMITS.queryChars }, dataType, multiValued }, [
            'question',
          ]),
        },
        fileIds,
      },
      ['questions'],
    ),
  },
  {
    name: 'extract_metadata',
    description:
      "Ask the document engine's extraction to read metadata fields from each file: one answer per field and file, " +
      'with the handles of the statements it was read from.',
    parameters: object(
      {
        metas: {
          type: 'array',
          minItems: 1,
          maxItems: TOOL_LIMITS.metas,
          items: object(
            {
              meta: { type: 'string', minLength: 1, maxLength: 200, description: 'The field name, e.g. "invoice date".' },
              description: { type: 'string', maxLength: TOOL_LIMITS.queryChars, description: 'What the field holds.' },
              dataType,
              multiValued,
            },
            ['meta'],
          ),
        },
        fileIds,
      },
      ['metas'],
    ),
  },
];

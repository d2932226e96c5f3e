import { applyDecorators, Controller, Get, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AGENT_LIMITS,
  AgentJobInputsDto,
  AgentJobOutputsDto,
  AgentTraceDto,
  AnnotationDto,
  ExtractionJobInputsDto,
  ExtractionJobOutputsDto,
  FIND_SIMILAR_LIMITS,
  FindSimilarJobDto,
  FindSimilarJobPageDto,
  JobDto,
  JobPageDto,
  MultiDimJobInputsDto,
  MultiDimJobOutputsDto,
  QaJobInputsDto,
  QaJobOutputsDto,
  type JobKind,
} from '@docintel/contracts';
import { ApiErrors } from '../http/api-errors.decorator';
import { JobCreateContract } from './idempotency-key';

/** What a job route does; each is a method and a path under the kind's path. */
export type JobAction = 'create' | 'list' | 'get' | 'inputs' | 'results' | 'annotations' | 'trace' | 'cancel';

/** The routes of one job kind, as the reference API names and documents them. */
export interface JobKindRoutes {
  kind: JobKind;
  tag: string;
  path: string;
  /** How operationIds name the kind: createQAJob, listQAJobs, getQAJobOutputs. */
  operationName: string;
  /** How summaries name it, with its article: "Create QA job", "Cancel a QA job (extension)". */
  label: string;
  article: 'a' | 'an';
  /** The job and the page of jobs its routes answer. */
  job: Type;
  page: Type;
  inputs?: Type;
  outputs?: Type;
  /** The response of a create, when it is not the job (it is the job an earlier request with the same key created, too). */
  created: string;
  /** Each route's description (none where a route has none); the routes the kind has are the ones named here. */
  descriptions: Partial<Record<JobAction, string | null>>;
  /** The create's errors and Idempotency-Key documentation, where they differ from every other kind's. */
  createContract?: { errors: number[]; header: MethodDecorator };
}

export const PARTIAL = 'While the job runs, the answers given so far (poll the job until its status is terminal for all of them).';
const CREATED = 'Job created successfully (or the job an earlier request with the same Idempotency-Key created)';

/** Every job kind's routes: one row per kind. */
export const JOB_ROUTES = {
  qa: {
    kind: 'qa',
    tag: 'Question Answering',
    path: 'api/core/qa/jobs',
    operationName: 'QA',
    label: 'QA',
    article: 'a',
    job: JobDto,
    page: JobPageDto,
    inputs: QaJobInputsDto,
    outputs: QaJobOutputsDto,
    created: CREATED,
    descriptions: {
      create: 'Creates a question answering job on the specified files; it runs asynchronously.',
      list: "The caller's QA jobs, newest first by default.",
      get: 'The job, with its progress (extension).',
      inputs: null,
      results: `One result per question. ${PARTIAL}`,
      annotations: `The citations of the answers. ${PARTIAL}`,
      cancel: 'Ends a PENDING or RUNNING job as ABORTED; answers given so far stay readable. A terminal job is returned unchanged.',
    },
  },
  extraction: {
    kind: 'extraction',
    tag: 'Extraction',
    path: 'api/core/extraction/jobs',
    operationName: 'Extraction',
    label: 'extraction',
    article: 'an',
    job: JobDto,
    page: JobPageDto,
    inputs: ExtractionJobInputsDto,
    outputs: ExtractionJobOutputsDto,
    created: CREATED,
    descriptions: {
      create: 'Extracts each meta from each file; runs asynchronously.',
      list: "The caller's extraction jobs, newest first by default.",
      get: 'The job, with its progress (extension).',
      inputs: null,
      results: `One result per meta and file (fileId, extension). ${PARTIAL}`,
      annotations: `The citations of the values. ${PARTIAL}`,
      cancel: 'Ends a PENDING or RUNNING job as ABORTED; values extracted so far stay readable. A terminal job is returned unchanged.',
    },
  },
  'multi-dim-extraction': {
    kind: 'multi-dim-extraction',
    tag: 'Multi-dimensional extraction',
    path: 'api/core/multi-dim-extraction/jobs',
    operationName: 'MultiDimExtraction',
    label: 'multi-dimensional extraction',
    article: 'a',
    job: JobDto,
    page: JobPageDto,
    inputs: MultiDimJobInputsDto,
    outputs: MultiDimJobOutputsDto,
    created: CREATED,
    descriptions: {
      create: 'Reads one row per entity of the schema from the files (their tables first, else their text); runs asynchronously.',
      list: "The caller's jobs, newest first by default.",
      get: 'The job, with its progress (extension): one unit per file.',
      inputs: null,
      results: `The rows, merged across files on the schema's row keys; conflicting values are named in the cell's explanation. ${PARTIAL}`,
      annotations: `The citations of the cells. ${PARTIAL}`,
      cancel: 'Ends a PENDING or RUNNING job as ABORTED; rows read so far stay readable. A terminal job is returned unchanged.',
    },
  },
  'find-similar': {
    kind: 'find-similar',
    tag: 'Find Similar',
    path: 'api/core/find-similar/jobs',
    operationName: 'FindSimilar',
    label: 'find-similar',
    article: 'a',
    job: FindSimilarJobDto,
    page: FindSimilarJobPageDto,
    created: 'Job created (PENDING or RUNNING), or the job an earlier request with the same Idempotency-Key created',
    descriptions: {
      create: `Finds, for each source, your indexed files that are that document or most similar to it; runs asynchronously (poll the job until COMPLETED or FAILED). At most ${FIND_SIMILAR_LIMITS.sources} sources.`,
      list: "The caller's find-similar jobs, newest first by default.",
      get: 'The job with its result so far and statistics.',
      cancel: 'Ends a PENDING or RUNNING job as ABORTED; sources searched so far stay in the result. A terminal job is returned unchanged.',
    },
  },
  agent: {
    kind: 'agent',
    tag: 'Agent',
    path: 'api/core/agent/jobs',
    operationName: 'Agent',
    label: 'agent',
    article: 'an',
    job: JobDto,
    page: JobPageDto,
    inputs: AgentJobInputsDto,
    outputs: AgentJobOutputsDto,
    created: 'Job created (or the job an earlier request with the same Idempotency-Key created)',
    descriptions: {
      create:
        'Stateful (`message`, optional `conversation_id`) or stateless (`messages`); runs asynchronously. The same Idempotency-Key with the same body returns the same job; with another body, 409.',
      list: "The caller's agent jobs, newest first; with conversationId, one conversation's.",
      get: null,
      inputs: 'The messages, files and configuration, in camelCase.',
      results: 'The answer (text, or an object valid against output_model_schema), the explanation and the ids of the cited annotations.',
      annotations: 'The DOCUMENT_STATEMENT annotations the answer cites, with positions.',
      trace: 'The tool calls of the run in order, with their arguments and results or errors; filled in while the job runs.',
      cancel: 'Ends a PENDING or RUNNING job as ABORTED, with the question and extraction jobs it started.',
    },
    // Agent keys were taken before the other kinds': they are hashed and documented on their own (agent.md).
    createContract: {
      errors: [400, 401, 404, 409, 415],
      header: ApiHeader({
        name: 'Idempotency-Key',
        required: false,
        description: `At most ${AGENT_LIMITS.idempotencyKeyChars} visible ASCII characters; remembered for JOB_IDEMPOTENCY_TTL_SECONDS (24 h by default)`,
      }),
    },
  },
} satisfies Record<JobKind, JobKindRoutes>;

const JOB_ID = ApiParam({ name: 'jobId', type: 'string', description: 'The job Id' });

/** Per action: its method, path, summary, operationId, answer and errors, from the kind's row. */
const ACTIONS: Record<
  JobAction,
  {
    post: boolean;
    path?: string;
    summary: (r: JobKindRoutes) => string;
    operationId: (name: string) => string;
    ok: (r: JobKindRoutes) => Type | [Type];
  }
> = {
  create: { post: true, summary: (r) => `Create ${r.label} job`, operationId: (n) => `create${n}Job`, ok: (r) => r.job },
  list: { post: false, summary: (r) => `List ${r.label} jobs`, operationId: (n) => `list${n}Jobs`, ok: (r) => r.page },
  get: { post: false, path: ':jobId', summary: (r) => `Get ${r.label} job`, operationId: (n) => `get${n}Job`, ok: (r) => r.job },
  inputs: {
    post: false,
    path: ':jobId/inputs',
    summary: (r) => `Get ${r.label} job inputs`,
    operationId: (n) => `get${n}JobInputs`,
    ok: (r) => r.inputs as Type,
  },
  results: {
    post: false,
    path: ':jobId/results',
    summary: (r) => `Get ${r.label} job outputs`,
    operationId: (n) => `get${n}JobOutputs`,
    ok: (r) => r.outputs as Type,
  },
  annotations: {
    post: false,
    path: ':jobId/annotations',
    summary: (r) => `Get ${r.label} job annotations`,
    operationId: (n) => `get${n}JobAnnotations`,
    ok: () => [AnnotationDto],
  },
  trace: {
    post: false,
    path: ':jobId/trace',
    summary: (r) => `Get ${r.label} job trace (extension)`,
    operationId: (n) => `get${n}JobTrace`,
    ok: () => AgentTraceDto,
  },
  cancel: {
    post: true,
    path: ':jobId/cancel',
    summary: (r) => `Cancel ${r.article} ${r.label} job (extension)`,
    operationId: (n) => `cancel${n}Job`,
    ok: (r) => r.job,
  },
};

/** The class decorators of a kind's controller: its path, tag, the token it takes and the models its routes name. */
export function JobController(routes: JobKindRoutes): ClassDecorator {
  const models = [routes.outputs, routes.inputs].filter((m): m is Type => m !== undefined);
  return applyDecorators(
    ApiTags(routes.tag),
    ApiBearerAuth('TOKEN'),
    ...(models.length ? [ApiExtraModels(...models)] : []),
    Controller(routes.path),
  );
}

/** One route of a kind, from its row of JOB_ROUTES: method, status 200, operationId, summary, description, answer and errors. */
export function JobRoute(routes: JobKindRoutes, action: JobAction): MethodDecorator {
  const a = ACTIONS[action];
  const description = routes.descriptions[action];
  const create = action === 'create';
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    a.post ? Post(a.path) : Get(a.path),
    ...(a.post ? [HttpCode(200)] : []),
    ApiOperation({ operationId: a.operationId(routes.operationName), summary: a.summary(routes), ...(description ? { description } : {}) }),
    ...(a.path ? [JOB_ID] : []),
    ...(create ? [routes.createContract?.header ?? JobCreateContract()] : []),
    ApiOkResponse(create ? { type: a.ok(routes), description: routes.created } : { type: a.ok(routes) }),
    ApiErrors(...(create ? (routes.createContract?.errors ?? [400, 401, 415]) : a.path ? [400, 401, 404] : [400, 401])),
  ];
  return applyDecorators(...decorators);
}

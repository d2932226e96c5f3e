import { AddFileToCollectionRequest, CollectionRefRequest, CreateCollectionRequest, ListCollectionFilesRequest } from './collections';
import { ListCollectionsQueryDto, RemoveFileFromCollectionRequest, UpdateCollectionRequest, type CollectionDto } from './collections';
import {
  CreateIndexedFileRequest,
  FileRefRequest,
  ListFilesQueryDto,
  ReindexFileRequest,
  type IndexedFileDto,
  type OntologyDto,
} from './files';
import { FileTablesRequest, type FileTablesReply } from './tables';
import { DownloadUrlRequest, ItemKeyRequest, ListItemsRequest, RenameItemRequest, TransferTargetRequest, UploadUrlRequest } from './items';
import type { DownloadUrlResponseDto, ListItemsResponseDto, ProviderItemDto, TransferTarget, UploadUrlResponseDto } from './items';
import {
  CreateExtractionJobRequest,
  CreateQaJobRequest,
  JobPartRequest,
  JobRefRequest,
  ListJobsRequest,
  PassageSearchRequest,
  PassagesAroundRequest,
  ResolveFilesRequest,
  type AnnotationDto,
  type ExtractionJobInputsDto,
  type JobDto,
  type JobPart,
  type MetaResultDto,
  type PassageSearchReply,
  type PassagesAroundReply,
  type QaJobInputsDto,
  type QaResultDto,
  type ResolveFilesReply,
} from './jobs';
import {
  CreateFindSimilarJobRequest,
  FindSimilarJobRefRequest,
  ListFindSimilarJobsRequest,
  SimilarFilesBySourceRequest,
  SimilarFilesByWorkRequest,
  type FindSimilarJobHead,
  type FindSimilarSourcesDto,
  type SimilarFilesReply,
  type SourceMatchesDto,
} from './find-similar';
import { CreateMultiDimJobRequest, MultiDimRowsRequest, type MultiDimJobInputsDto, type MultiDimRowsPart } from './multi-dim';
import {
  AgentTraceRequest,
  CreateAgentJobRequest,
  ListAgentJobsRequest,
  type AgentJobInputsDto,
  type AgentJobOutputsDto,
  type AgentTraceDto,
} from './agent';
import { DocumentRequest, type DocumentReply } from './nodes';
import type { Page } from './paging';
import { GetProviderRequest, ListProvidersQueryDto, type ProviderDto } from './providers';
import { rpc, type NoPayload, type RpcCall } from './rpc';
import { CreateRuleDto, EvaluateRulesRequest, TriggerRefRequest, UpsertRuleRequest } from './rules';
import type { RuleDecision, RuleDto, RuleListDto, TriggerListDto, TriggerSchemaDto } from './rules';
import { ServiceNames, Subjects, type PingReply } from './subjects';

// Every request/reply call between the services: subject, payload class and reply type, once.
// docs/architecture.md lists them in a table that libs/contracts/src/rpc-calls.doc.spec.ts checks.

/** The reply of `rules.rules.upsert`: the rule, and whether the PUT created it (201) or replaced it (200). */
export interface UpsertRuleReply {
  rule: RuleDto;
  created: boolean;
}

/** The reply of `storage.items.delete`. */
export interface ItemDeletedReply {
  deleted: true;
}

// storage-service
export const ProvidersList = rpc<ListProvidersQueryDto, Page<ProviderDto>>(Subjects.storage.providersList, ListProvidersQueryDto);
export const ProvidersGet = rpc<GetProviderRequest, ProviderDto>(Subjects.storage.providersGet, GetProviderRequest);
export const ItemsList = rpc<ListItemsRequest, ListItemsResponseDto>(Subjects.storage.itemsList, ListItemsRequest);
export const ItemsStat = rpc<ItemKeyRequest, ProviderItemDto>(Subjects.storage.itemsStat, ItemKeyRequest);
export const ItemsCreateFolder = rpc<ItemKeyRequest, ProviderItemDto>(Subjects.storage.itemsCreateFolder, ItemKeyRequest);
export const ItemsDelete = rpc<ItemKeyRequest, ItemDeletedReply>(Subjects.storage.itemsDelete, ItemKeyRequest);
export const ItemsRename = rpc<RenameItemRequest, ProviderItemDto>(Subjects.storage.itemsRename, RenameItemRequest);
export const ItemsUploadUrl = rpc<UploadUrlRequest, UploadUrlResponseDto>(Subjects.storage.itemsUploadUrl, UploadUrlRequest);
export const ItemsConfirm = rpc<ItemKeyRequest, ProviderItemDto>(Subjects.storage.itemsConfirm, ItemKeyRequest);
export const ItemsDownloadUrl = rpc<DownloadUrlRequest, DownloadUrlResponseDto>(Subjects.storage.itemsDownloadUrl, DownloadUrlRequest);
export const ItemsTransferTarget = rpc<TransferTargetRequest, TransferTarget>(Subjects.storage.itemsTransferTarget, TransferTargetRequest);

// indexing-service
export const FilesList = rpc<ListFilesQueryDto, Page<IndexedFileDto>>(Subjects.indexing.filesList, ListFilesQueryDto);
export const FilesCreate = rpc<CreateIndexedFileRequest, IndexedFileDto>(Subjects.indexing.filesCreate, CreateIndexedFileRequest);
export const FilesGet = rpc<FileRefRequest, IndexedFileDto>(Subjects.indexing.filesGet, FileRefRequest);
export const FilesDelete = rpc<FileRefRequest, null>(Subjects.indexing.filesDelete, FileRefRequest);
export const FilesReindex = rpc<ReindexFileRequest, null>(Subjects.indexing.filesReindex, ReindexFileRequest);
export const FilesRecomputeOntologies = rpc<FileRefRequest, null>(Subjects.indexing.filesRecomputeOntologies, FileRefRequest);
export const FilesOntologies = rpc<FileRefRequest, OntologyDto[]>(Subjects.indexing.filesOntologies, FileRefRequest);
export const FilesDocument = rpc<DocumentRequest, DocumentReply>(Subjects.indexing.filesDocument, DocumentRequest);
export const CollectionsList = rpc<ListCollectionsQueryDto, Page<CollectionDto>>(
  Subjects.indexing.collectionsList,
  ListCollectionsQueryDto,
);
export const CollectionsCreate = rpc<CreateCollectionRequest, CollectionDto>(Subjects.indexing.collectionsCreate, CreateCollectionRequest);
export const CollectionsGet = rpc<CollectionRefRequest, CollectionDto>(Subjects.indexing.collectionsGet, CollectionRefRequest);
export const CollectionsUpdate = rpc<UpdateCollectionRequest, CollectionDto>(Subjects.indexing.collectionsUpdate, UpdateCollectionRequest);
export const CollectionsDelete = rpc<CollectionRefRequest, null>(Subjects.indexing.collectionsDelete, CollectionRefRequest);
export const CollectionFilesList = rpc<ListCollectionFilesRequest, Page<IndexedFileDto>>(
  Subjects.indexing.collectionFilesList,
  ListCollectionFilesRequest,
);
export const CollectionFilesAdd = rpc<AddFileToCollectionRequest, IndexedFileDto>(
  Subjects.indexing.collectionFilesAdd,
  AddFileToCollectionRequest,
);
export const CollectionFilesRemove = rpc<RemoveFileFromCollectionRequest, null>(
  Subjects.indexing.collectionFilesRemove,
  RemoveFileFromCollectionRequest,
);

export const FilesResolve = rpc<ResolveFilesRequest, ResolveFilesReply>(Subjects.indexing.filesResolve, ResolveFilesRequest);
export const PassagesSearch = rpc<PassageSearchRequest, PassageSearchReply>(Subjects.indexing.passagesSearch, PassageSearchRequest);
export const PassagesAround = rpc<PassagesAroundRequest, PassagesAroundReply>(Subjects.indexing.passagesAround, PassagesAroundRequest);
export const FilesTables = rpc<FileTablesRequest, FileTablesReply>(Subjects.indexing.filesTables, FileTablesRequest);
export const SimilarFilesBySource = rpc<SimilarFilesBySourceRequest, SimilarFilesReply>(
  Subjects.indexing.similarBySource,
  SimilarFilesBySourceRequest,
);
export const SimilarFilesByWork = rpc<SimilarFilesByWorkRequest, Pick<SimilarFilesReply, 'similar' | 'source'>>(
  Subjects.indexing.similarByWork,
  SimilarFilesByWorkRequest,
);

// job-orchestrator
export const QaJobsCreate = rpc<CreateQaJobRequest, JobDto>(Subjects.jobs.qaCreate, CreateQaJobRequest);
export const ExtractionJobsCreate = rpc<CreateExtractionJobRequest, JobDto>(Subjects.jobs.extractionCreate, CreateExtractionJobRequest);
export const MultiDimExtractionJobsCreate = rpc<CreateMultiDimJobRequest, JobDto>(
  Subjects.jobs.multiDimExtractionCreate,
  CreateMultiDimJobRequest,
);
export const MultiDimExtractionJobsRows = rpc<MultiDimRowsRequest, MultiDimRowsPart>(
  Subjects.jobs.multiDimExtractionRows,
  MultiDimRowsRequest,
);
export const FindSimilarJobsCreate = rpc<CreateFindSimilarJobRequest, FindSimilarJobHead>(
  Subjects.jobs.findSimilarCreate,
  CreateFindSimilarJobRequest,
);
export const FindSimilarJobsGet = rpc<FindSimilarJobRefRequest, FindSimilarJobHead>(Subjects.jobs.findSimilarGet, FindSimilarJobRefRequest);
export const FindSimilarJobsList = rpc<ListFindSimilarJobsRequest, Page<FindSimilarJobHead>>(
  Subjects.jobs.findSimilarList,
  ListFindSimilarJobsRequest,
);
export const AgentJobsCreate = rpc<CreateAgentJobRequest, JobDto>(Subjects.jobs.agentCreate, CreateAgentJobRequest);
export const AgentJobsList = rpc<ListAgentJobsRequest, Page<JobDto>>(Subjects.jobs.agentList, ListAgentJobsRequest);
export const AgentJobsTrace = rpc<AgentTraceRequest, AgentTraceDto>(Subjects.jobs.agentTrace, AgentTraceRequest);
export const JobsList = rpc<ListJobsRequest, Page<JobDto>>(Subjects.jobs.list, ListJobsRequest);
export const JobsGet = rpc<JobRefRequest, JobDto>(Subjects.jobs.get, JobRefRequest);
export const JobsInputs = rpc<
  JobRefRequest,
  QaJobInputsDto | ExtractionJobInputsDto | FindSimilarSourcesDto | MultiDimJobInputsDto | AgentJobInputsDto
>(Subjects.jobs.inputs, JobRefRequest);
export const JobsResults = rpc<JobPartRequest, JobPart<QaResultDto | MetaResultDto | SourceMatchesDto | AgentJobOutputsDto>>(
  Subjects.jobs.results,
  JobPartRequest,
);
export const JobsAnnotations = rpc<JobPartRequest, JobPart<AnnotationDto>>(Subjects.jobs.annotations, JobPartRequest);
export const JobsCancel = rpc<JobRefRequest, JobDto>(Subjects.jobs.cancel, JobRefRequest);

// rules-engine
export const TriggersList = rpc<NoPayload, TriggerListDto>(Subjects.rules.triggersList);
export const TriggersSchema = rpc<TriggerRefRequest, TriggerSchemaDto>(Subjects.rules.triggersSchema, TriggerRefRequest);
export const RulesList = rpc<NoPayload, RuleListDto>(Subjects.rules.rulesList);
export const RulesGet = rpc<TriggerRefRequest, RuleDto>(Subjects.rules.rulesGet, TriggerRefRequest);
export const RulesCreate = rpc<CreateRuleDto, RuleDto>(Subjects.rules.rulesCreate, CreateRuleDto);
export const RulesUpsert = rpc<UpsertRuleRequest, UpsertRuleReply>(Subjects.rules.rulesUpsert, UpsertRuleRequest);
export const RulesDelete = rpc<TriggerRefRequest, Record<string, never>>(Subjects.rules.rulesDelete, TriggerRefRequest);
export const RulesEvaluate = rpc<EvaluateRulesRequest, RuleDecision>(Subjects.rules.evaluate, EvaluateRulesRequest);

/** `<service>.health.ping`, answered by every process (libs/runtime) with who and how long up. */
export type PingCall = RpcCall<NoPayload, PingReply>;
export const HealthPings: Record<keyof typeof ServiceNames, PingCall> = {
  gateway: rpc<NoPayload, PingReply>(Subjects.gateway.ping),
  storage: rpc<NoPayload, PingReply>(Subjects.storage.ping),
  indexing: rpc<NoPayload, PingReply>(Subjects.indexing.ping),
  jobs: rpc<NoPayload, PingReply>(Subjects.jobs.ping),
  rules: rpc<NoPayload, PingReply>(Subjects.rules.ping),
};

/** Every call by its exported name, for tools and docs (the table in docs/architecture.md). */
export const RpcCalls = {
  ProvidersList,
  ProvidersGet,
  ItemsList,
  ItemsStat,
  ItemsCreateFolder,
  ItemsDelete,
  ItemsRename,
  ItemsUploadUrl,
  ItemsConfirm,
  ItemsDownloadUrl,
  ItemsTransferTarget,
  FilesList,
  FilesCreate,
  FilesGet,
  FilesDelete,
  FilesReindex,
  FilesRecomputeOntologies,
  FilesOntologies,
  FilesDocument,
  CollectionsList,
  CollectionsCreate,
  CollectionsGet,
  CollectionsUpdate,
  CollectionsDelete,
  CollectionFilesList,
  CollectionFilesAdd,
  CollectionFilesRemove,
  FilesResolve,
  PassagesSearch,
  PassagesAround,
  FilesTables,
  SimilarFilesBySource,
  SimilarFilesByWork,
  QaJobsCreate,
  ExtractionJobsCreate,
  MultiDimExtractionJobsCreate,
  MultiDimExtractionJobsRows,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  AgentJobsCreate,
  AgentJobsList,
  AgentJobsTrace,
  JobsList,
  JobsGet,
  JobsInputs,
  JobsResults,
  JobsAnnotations,
  JobsCancel,
  TriggersList,
  TriggersSchema,
  RulesList,
  RulesGet,
  RulesCreate,
  RulesUpsert,
  RulesDelete,
  RulesEvaluate,
} as const;

/** The service that answers a call: the first segment of its subject names it. */
export function rpcOwner(call: RpcCall<unknown, unknown>): string {
  const prefix = call.subject.split('.')[0] as keyof typeof ServiceNames;
  const owner = ServiceNames[prefix] as string | undefined;
  if (!owner) throw new Error(`The subject ${call.subject} does not start with a service (${Object.keys(ServiceNames).join(', ')})`);
  return owner;
}

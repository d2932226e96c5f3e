import type { components } from './schema';

/** Every schema of the document, by the name the document gives it (`ProviderDto`, `JobDto`…). */
export type Schemas = components['schemas'];
export type Schema<Name extends keyof Schemas> = Schemas[Name];

// The main resources under their domain names.
export type EntityId = Schemas['EntityIdDto'];
export type ErrorBody = Schemas['ErrorBodyDto'];
export type ErrorDetail = Schemas['ErrorDetailDto'];
export type ErrorCode = ErrorBody['code'];

export type Provider = Schemas['ProviderDto'];
export type ProviderPage = Schemas['ProviderPageDto'];
export type ProviderItem = Schemas['ProviderItemDto'];
export type ProviderItemListing = Schemas['ListItemsResponseDto'];
export type UploadUrlRequest = Schemas['UploadUrlRequestDto'];
export type UploadUrlResponse = Schemas['UploadUrlResponseDto'];
export type DownloadUrlResponse = Schemas['DownloadUrlResponseDto'];

export type IndexedFile = Schemas['IndexedFileDto'];
export type IndexedFilePage = Schemas['IndexedFilePageDto'];
export type IndexationInfos = Schemas['IndexationInfosDto'];
export type IndexationStatus = IndexationInfos['status'];
export type CreateFileRequest = Schemas['CreateFileRequestDto'];
export type Ontology = Schemas['OntologyDto'];
export type DocumentNode = Schemas['DocumentNodeDto'];

export type Collection = Schemas['CollectionDto'];
export type CollectionPage = Schemas['CollectionPageDto'];
export type CreateCollectionRequest = Schemas['CreateCollectionRequestDto'];
export type UpdateCollectionRequest = Schemas['UpdateCollectionRequestDto'];

/** A QA, extraction, multi-dimensional extraction or agent job. */
export type Job = Schemas['JobDto'];
export type JobPage = Schemas['PageDataJob'];
/** A find-similar job: it ends in COMPLETED rather than SUCCESS, and carries its result. */
export type FindSimilarJob = Schemas['FindSimilarJobDto'];
export type FindSimilarJobPage = Schemas['PageDataFindSimilarJob'];
export type JobStatus = Job['status'] | FindSimilarJob['status'];
export type Annotation = Schemas['AnnotationDto'];
export type FilesInput = Schemas['FilesInputDto'];
export type JobLaunchConfig = Schemas['JobLaunchConfigDto'];
export type CreateQaJobRequest = Schemas['CreateQaJobRequestDto'];
export type QaJobOutputs = Schemas['QaJobOutputsDto'];
export type CreateExtractionJobRequest = Schemas['CreateExtractionJobRequestDto'];
export type ExtractionJobOutputs = Schemas['ExtractionJobOutputsDto'];
export type CreateMultiDimJobRequest = Schemas['CreateMultiDimJobRequestDto'];
export type MultiDimJobOutputs = Schemas['MultiDimJobOutputsDto'];
export type CreateFindSimilarJobRequest = Schemas['CreateFindSimilarJobRequestDto'];
export type CreateAgentJobRequest = Schemas['CreateAgentJobRequestDto'];
export type AgentJobOutputs = Schemas['AgentJobOutputsDto'];
export type AgentTrace = Schemas['AgentTraceDto'];

export type Trigger = Schemas['TriggerDto'];
export type Rule = Schemas['RuleDto'];

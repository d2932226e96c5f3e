import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, MaxLength, Min } from 'class-validator';

/**
 * Payloads of the pipeline hook points (HOOKS stream) and of the indexing work queue (WORK stream).
 * They carry the namespace (its id for the data, its name for rules and storage), the file, the
 * node-tree generation the event is about, and the facts rule filters match on. Consumers validate
 * every message with validatePayload() before acting on it.
 */

/** Most node ids one node.batch.created or node.updated event carries. */
export const MAX_NODES_PER_EVENT = 1000;

class FileEventBase {
  @IsUUID()
  namespaceId: string;

  @IsString()
  @MaxLength(200)
  namespaceName: string;

  @IsUUID()
  fileId: string;

  /** Epoch ms of the request this work belongs to; a newer request on the file supersedes it. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  requestedTime: number;
}

/**
 * root_node.created: a file's tree must be (re)built from its bytes. corpus_parsing writes the root
 * node `rootNodeId` and the tree under it into a generation of its own per attempt, and commits it.
 * Nothing is written before the message: the request itself is recorded on the IndexedFile.
 */
export class RootNodeCreatedEvent extends FileEventBase {
  /** The id of the tree's root node, derived from the request: every attempt and every republish use the same one. */
  @IsUUID()
  rootNodeId: string;

  /** Always true today: root_node.created is emitted only when the bytes are read again. */
  @IsBoolean()
  reparse: boolean;

  @IsUUID()
  providerId: string;

  @IsString()
  @MaxLength(4096)
  key: string;

  /** The media type recorded when the file was created (from the provider item); null when unknown. */
  @IsOptional()
  @IsString()
  mediaType: string | null;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  size: number | null;
}

class NodesEventBase extends FileEventBase {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  generation: number;

  @IsArray()
  @ArrayMaxSize(MAX_NODES_PER_EVENT)
  @IsUUID('all', { each: true })
  nodeIds: string[];

  /** The distinct node types among nodeIds. */
  @IsArray()
  @IsString({ each: true })
  nodeTypes: string[];

  /** The media type detected from the content. */
  @IsOptional()
  @IsString()
  mimeType: string | null;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  size: number | null;
}

/** node.batch.created: one batch of a committed tree (on parse, and again on a reindex without reparse). */
export class NodeBatchCreatedEvent extends NodesEventBase {
  /** 0-based position of the batch and how many batches the run published. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  batch: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  batches: number;
}

export const NODE_UPDATE_REASONS = ['parsed', 'reindexed', 'augmented'] as const;
export type NodeUpdateReason = (typeof NODE_UPDATE_REASONS)[number];

/**
 * node.updated: nodes worth another look. `parsed` and `reindexed` name the formula candidates of
 * a new or re-run tree; `augmented` says formula_augmentation changed the nodes (and is ignored by it).
 */
export class NodeUpdatedEvent extends NodesEventBase {
  @IsIn(NODE_UPDATE_REASONS)
  reason: NodeUpdateReason;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  batch?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  batches?: number;
}

/** work.indexing.reindex: re-run the steps after parsing on the committed tree, without reading the bytes. */
export class ReindexWork extends FileEventBase {}

/** work.indexing.ontologies: compute ontologies and metadata from the committed tree. */
export class OntologiesWork extends FileEventBase {
  /** The generation just committed; absent for a recompute request (which uses whatever is current). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  generation?: number;
}

/**
 * Progress of an asynchronous step, kept on the IndexedFile under additionalInfos.<step>
 * (node_embedding, formula_augmentation). Counters are per run: a new parse or reindex starts them again.
 */
export type StepStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'SKIPPED' | 'FAILED';

export interface StepProgress {
  status: StepStatus;
  /** The run (request) and tree generation the counters belong to. */
  requestedTime: number;
  generation: number;
  batches: number;
  /** Batches handled (embedded or augmented, skipped by the rule, or failed for good). */
  batchesDone: number;
  skippedBatches: number;
  failedBatches: number;
  /** Nodes the run offered to the step (all nodes for node_embedding, formula candidates for formula_augmentation). */
  totalNodes: number;
  /** 0-based positions of the batches counted: a batch delivered twice (after a restart, or an ack deadline passed) counts once. */
  countedBatches?: number[];
  /** Why the step did not run (SKIPPED), or the rule's reason for the last batch it skipped. */
  reason: string | null;
  lastError: string | null;
  /** Epoch ms. */
  updatedTime: number;
}

/** additionalInfos.node_embedding */
export interface NodeEmbeddingProgress extends StepProgress {
  /** Vectors written. */
  embeddedNodes: number;
  /** The embedding model the vectors belong to. */
  model: string | null;
}

/** additionalInfos.formula_augmentation */
export interface FormulaAugmentationProgress extends StepProgress {
  /** Nodes given a normalised LaTeX form and a plain-text reading. */
  augmentedNodes: number;
}

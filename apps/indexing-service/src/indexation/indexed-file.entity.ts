import { Column, Entity } from 'typeorm';
import type { IndexationStatus } from '@docintel/contracts';
import { bigintNumber, OwnedRecordEntity } from '../ownership';

/**
 * An IndexedFile: a provider item taken into the index of a namespace. This entity is the one read
 * model of the files table, for the Files API and the pipeline alike. FilesRepository creates,
 * lists and deletes files; every write to the indexation state (status, request, claim, generations,
 * additionalInfos) goes through IndexationStateRepository.
 */
@Entity({ name: 'files' })
export class IndexedFileEntity extends OwnedRecordEntity {
  @Column('uuid', { name: 'provider_id' })
  providerId: string;

  /** The full provider item key; the API shows it as both `key` and `path`. */
  @Column('text')
  key: string;

  @Column('text')
  name: string;

  @Column('text')
  extension: string;

  @Column('bigint', { nullable: true, transformer: bigintNumber })
  size: number | null;

  @Column('text', { name: 'media_type', nullable: true })
  mediaType: string | null;

  /** SHA-256 of the bytes, hex; set by indexation when it reads the content. */
  @Column('text', { nullable: true })
  checksum: string | null;

  @Column('text', { name: 'provider_name' })
  providerName: string;

  @Column('text')
  status: IndexationStatus;

  @Column('text', { name: 'error_message', nullable: true })
  errorMessage: string | null;

  /** True once a node tree has been committed: the document can be read. */
  @Column('boolean')
  indexed: boolean;

  @Column('boolean', { name: 'match_computed' })
  matchComputed: boolean;

  @Column('text', { nullable: true })
  title: string | null;

  @Column('text', { nullable: true })
  authors: string | null;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('jsonb', { name: 'additional_info' })
  additionalInfo: Record<string, unknown>;

  /** How many indexations were asked for (creation counts as the first). */
  @Column('integer', { name: 'indexation_requests' })
  indexationRequests: number;

  /** Whether the pending indexation must read and parse the bytes again. */
  @Column('boolean', { name: 'reparse_requested' })
  reparseRequested: boolean;

  @Column('integer', { name: 'ontology_requests' })
  ontologyRequests: number;

  @Column('bigint', { name: 'requested_time', transformer: bigintNumber })
  requestedTime: number;

  /** The node-tree generation readers see; null before the first committed parse. */
  @Column('integer', { name: 'current_generation', nullable: true })
  currentGeneration: number | null;

  /** The last generation handed out by beginGeneration. */
  @Column('integer', { name: 'last_generation' })
  lastGeneration: number;

  // The pipeline's bookkeeping, written only by IndexationStateRepository (indexation/).

  /** Rules and storage know a namespace by its name; recorded with every request. */
  @Column('text', { name: 'namespace_name', nullable: true })
  namespaceName: string | null;

  /** The request (requestedTime) a worker has taken up; a request is taken up once. */
  @Column('bigint', { name: 'claimed_request_time', nullable: true, transformer: bigintNumber })
  claimedRequestTime: number | null;

  /** A RUNNING worker's last sign of life (epoch ms). */
  @Column('bigint', { name: 'heartbeat_time', nullable: true, transformer: bigintNumber })
  heartbeatTime: number | null;

  /** The request, generation and root node of the latest parse attempt (what the sweeper cleans up after). */
  @Column('bigint', { name: 'pipeline_request_time', nullable: true, transformer: bigintNumber })
  pipelineRequestTime: number | null;

  @Column('integer', { name: 'pipeline_generation', nullable: true })
  pipelineGeneration: number | null;

  @Column('uuid', { name: 'pipeline_root_id', nullable: true })
  pipelineRootId: string | null;

  /** Times the current request's worker died under it and the request went back to the queue. */
  @Column('integer')
  interruptions: number;
}

import { Type } from 'class-transformer';
import type { ClassConstructor } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { JobUnitWork } from './jobs';
import { NodeBatchCreatedEvent, NodeUpdatedEvent, OntologiesWork, ReindexWork, RootNodeCreatedEvent } from './hooks';
import type { ProviderItemEvent, ProviderItemType } from './items';
import { Events, HookPoints, Streams, WorkSubjects, type HookPoint, type StreamDefinition } from './subjects';

/**
 * A JetStream message, defined once: its subject, the stream that stores it and the class its
 * payload must fit. Publishers pass the definition (so the payload is type-checked against the
 * class) and consumers subscribe to it (so every message is validated into the class, and one that
 * does not fit goes to the dead-letter subject). The request/reply twin of this is the typed call
 * definition of an RPC subject.
 */
export interface StreamMessage<T extends object> {
  /** hook: a pipeline hook point (HOOKS); work: a durable work queue (WORK); event: a domain event (DOMAIN_EVENTS). */
  readonly kind: 'hook' | 'work' | 'event';
  readonly subject: string;
  readonly stream: StreamDefinition;
  readonly payload: ClassConstructor<T>;
}

/** The payload type of a stream message definition. */
export type PayloadOf<M> = M extends StreamMessage<infer T> ? T : never;

/** A pipeline hook point: its exact name and its payload class. */
export const hook = <T extends object>(subject: HookPoint, payload: ClassConstructor<T>): StreamMessage<T> => ({
  kind: 'hook',
  subject,
  stream: Streams.hooks,
  payload,
});

/** A work queue subject (`work.<service>.<what>`) on the WORK stream. */
export const work = <T extends object>(subject: `work.${string}`, payload: ClassConstructor<T>): StreamMessage<T> => ({
  kind: 'work',
  subject,
  stream: Streams.work,
  payload,
});

/** A domain event (`events.<service>.<what>`) on the DOMAIN_EVENTS stream. */
export const event = <T extends object>(subject: `events.${string}`, payload: ClassConstructor<T>): StreamMessage<T> => ({
  kind: 'event',
  subject,
  stream: Streams.domainEvents,
  payload,
});

/** The indexation pipeline's hook points (HOOKS stream). */
export const Hooks = {
  rootNodeCreated: hook(HookPoints.rootNodeCreated, RootNodeCreatedEvent),
  nodeBatchCreated: hook(HookPoints.nodeBatchCreated, NodeBatchCreatedEvent),
  nodeUpdated: hook(HookPoints.nodeUpdated, NodeUpdatedEvent),
} as const;

/** The indexing service's work queues (WORK stream). */
export const Work = {
  indexingReindex: work(WorkSubjects.indexingReindex, ReindexWork),
  indexingOntologies: work(WorkSubjects.indexingOntologies, OntologiesWork),
  jobsUnit: work(WorkSubjects.jobsUnit, JobUnitWork),
  jobsAgent: work(WorkSubjects.jobsAgent, JobUnitWork),
} as const;

const ITEM_TYPES: ProviderItemType[] = ['FILE', 'FOLDER'];

/** item.created / deleted / renamed, as storage publishes them. */
export class ProviderItemEventPayload implements ProviderItemEvent {
  @IsString()
  @MaxLength(200)
  providerId: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  namespace?: string;

  @IsString()
  @MaxLength(4096)
  key: string;

  @IsIn(ITEM_TYPES)
  type: ProviderItemType;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  previousKey?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  size?: number | null;

  @IsOptional()
  @IsString()
  mediaType?: string | null;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  occurredAt: number;

  @IsOptional()
  @IsString()
  requestId?: string;
}

/** Storage's domain events (DOMAIN_EVENTS stream). */
export const DomainEvents = {
  itemCreated: event(Events.itemCreated, ProviderItemEventPayload),
  itemDeleted: event(Events.itemDeleted, ProviderItemEventPayload),
  itemRenamed: event(Events.itemRenamed, ProviderItemEventPayload),
} as const;

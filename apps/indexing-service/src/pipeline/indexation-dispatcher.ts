import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { HookPoints, WorkSubjects, type OntologiesWork, type ReindexWork, type RootNodeCreatedEvent } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import type { IndexationRequested, IndexationRequests } from '../files/indexation-requests';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { PipelineStateRepository, type PipelineFile } from './pipeline-state.repository';

/** The message ids that make a request land once, however often it is published. */
export const requestMsgId = {
  parse: (fileId: string, requestedTime: number) => `${fileId}:${requestedTime}`,
  reindex: (fileId: string, requestedTime: number) => `reindex:${fileId}:${requestedTime}`,
};

/**
 * Binds the Files API's INDEXATION_REQUESTS port to the pipeline. A request that must read the
 * bytes (a new file, a reparse, or a file without a committed tree) gets a new node-tree generation
 * holding its root `document` node and is announced with root_node.created, which corpus_parsing
 * consumes. A reindex without reparse goes to the WORK stream (the steps after parsing re-run on
 * the committed tree); a recompute of ontologies too.
 *
 * The Files API calls this after its own transaction committed, so a failure here must not fail
 * the request: it is logged, the file stays PENDING and unclaimed, and the sweeper publishes it again.
 */
@Injectable()
export class IndexationDispatcher implements IndexationRequests {
  constructor(
    private readonly state: PipelineStateRepository,
    private readonly nodes: NodeStoreRepository,
    private readonly jetstream: JetStream,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async requested(event: IndexationRequested): Promise<void> {
    try {
      if (event.namespaceName) await this.state.recordNamespaceName(event.fileId, event.namespaceName);
      if (event.reason === 'ontologies') {
        if (!event.namespaceName) throw new Error('the request carries no namespace name');
        const work: OntologiesWork = {
          namespaceId: event.namespaceId,
          namespaceName: event.namespaceName,
          fileId: event.fileId,
          requestedTime: event.requestedTime,
        };
        await this.jetstream.publish(
          WorkSubjects.indexingOntologies,
          work,
          `ontologies:${event.fileId}:${event.requestId ?? randomUUID()}`,
        );
        return;
      }
      const file = await this.state.load(event.fileId);
      if (file) await this.dispatch(file);
    } catch (err) {
      this.logger.warn(
        { err, fileId: event.fileId, reason: event.reason },
        'indexation request recorded but not published; the sweeper will publish it again',
      );
    }
  }

  /**
   * Publishes the file's current request (again). Idempotent per request: the generation prepared
   * for it is reused and the message id is the request's, so a repeat is stored once.
   */
  async dispatch(file: PipelineFile): Promise<void> {
    if (!file.namespaceName) throw new Error(`file ${file.id} has no recorded namespace name`);
    const common = { namespaceId: file.namespaceId, namespaceName: file.namespaceName, fileId: file.id, requestedTime: file.requestedTime };
    if (!file.reparseRequested && file.currentGeneration !== null) {
      await this.jetstream.publish(
        WorkSubjects.indexingReindex,
        common satisfies ReindexWork,
        requestMsgId.reindex(file.id, file.requestedTime),
      );
      return;
    }
    let generation = file.pipelineGeneration;
    let rootNodeId = file.pipelineRootId;
    if (file.pipelineRequestTime !== file.requestedTime || generation === null || rootNodeId === null) {
      generation = await this.nodes.beginGeneration(file.id);
      rootNodeId = randomUUID();
      await this.nodes.insertBatch(file.id, generation, [{ id: rootNodeId, parentId: null, ordinal: 0, type: 'document', text: '' }]);
      // Overtaken by a newer request meanwhile: that request dispatches itself.
      if (!(await this.state.recordPreparedGeneration(file.id, file.requestedTime, generation, rootNodeId))) {
        await this.nodes.discardGeneration(file.id, generation);
        return;
      }
    }
    const event: RootNodeCreatedEvent = {
      ...common,
      generation,
      rootNodeId,
      reparse: true,
      providerId: file.providerId,
      key: file.key,
      mediaType: file.mediaType,
      size: file.size,
    };
    await this.jetstream.publish(HookPoints.rootNodeCreated, event, requestMsgId.parse(file.id, file.requestedTime));
  }
}

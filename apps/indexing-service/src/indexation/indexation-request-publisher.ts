import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { Hooks, Work } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import type { IndexedFileEntity } from './indexed-file.entity';
import type { IndexationRequests } from './indexation-requests';

/** The message ids that make a request land once, however often it is published. */
export const requestMsgId = {
  parse: (fileId: string, requestedTime: number) => `${fileId}:${requestedTime}`,
  reindex: (fileId: string, requestedTime: number) => `reindex:${fileId}:${requestedTime}`,
};

/**
 * The id of the root node of the tree a request builds: derived from the request (a name-based
 * UUID, version 5 layout), so that every attempt and every republish of the request use the same
 * one without anything being written before the message.
 */
export function rootNodeIdFor(fileId: string, requestedTime: number): string {
  const h = createHash('sha256').update(`docintel:root-node:${fileId}:${requestedTime}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The INDEXATION_REQUESTS port, bound to JetStream. It writes nothing: the request is already on
 * the file. A request that must read the bytes (a new file, a reparse, or a file without a committed
 * tree) is published as root_node.created, which corpus_parsing consumes; a reindex without reparse
 * goes to the WORK stream (the steps after parsing re-run on the committed tree); a recompute of
 * ontologies too.
 */
@Injectable()
export class IndexationRequestPublisher implements IndexationRequests {
  constructor(
    private readonly jetstream: JetStream,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async requested(file: IndexedFileEntity): Promise<void> {
    try {
      await this.publish(file);
    } catch (err) {
      this.logger.warn({ err, fileId: file.id }, 'indexation request recorded but not published; the sweeper will publish it again');
    }
  }

  async ontologiesRequested(file: IndexedFileEntity, requestId: string = randomUUID()): Promise<void> {
    try {
      if (!file.namespaceName) throw new Error('the request carries no namespace name');
      await this.jetstream.publish(
        Work.indexingOntologies,
        { namespaceId: file.namespaceId, namespaceName: file.namespaceName, fileId: file.id, requestedTime: file.requestedTime },
        `ontologies:${file.id}:${requestId}`,
      );
    } catch (err) {
      this.logger.warn({ err, fileId: file.id }, 'ontologies recompute recorded but not published');
    }
  }

  /**
   * Publishes the file's current request (again): by the Files API, by the sweeper for a request
   * nobody took up, by the reindex worker when a reindex turned out to need a parse. Idempotent per
   * request: the message id and the root node id are the request's, so a repeat is stored once.
   */
  async publish(file: IndexedFileEntity): Promise<void> {
    if (!file.namespaceName) throw new Error(`file ${file.id} has no recorded namespace name`);
    const common = { namespaceId: file.namespaceId, namespaceName: file.namespaceName, fileId: file.id, requestedTime: file.requestedTime };
    if (!file.reparseRequested && file.currentGeneration !== null) {
      await this.jetstream.publish(Work.indexingReindex, common, requestMsgId.reindex(file.id, file.requestedTime));
      return;
    }
    await this.jetstream.publish(
      Hooks.rootNodeCreated,
      {
        ...common,
        rootNodeId: rootNodeIdFor(file.id, file.requestedTime),
        reparse: true,
        providerId: file.providerId,
        key: file.key,
        mediaType: file.mediaType,
        size: file.size,
      },
      requestMsgId.parse(file.id, file.requestedTime),
    );
  }
}

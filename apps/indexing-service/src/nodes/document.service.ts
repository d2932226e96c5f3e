import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { DomainError, ErrorCode, type DocumentFormat, type DocumentReply, type RpcContext } from '@docintel/contracts';
import { NATS_CONNECTION } from '@docintel/messaging';
import { renderMarkdown, renderText } from '@docintel/parsing';
import { requireNamespace } from '../tenancy';
import { NodeStoreRepository } from './node-store.repository';

/** Room left in a NATS message for the reply envelope and headers. */
const ENVELOPE_BYTES = 4096;

/** GET /files/{id}/document: the committed node tree, or the document rendered in reading order. */
@Injectable()
export class DocumentService {
  constructor(
    private readonly nodes: NodeStoreRepository,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async read(ctx: RpcContext, fileId: string, format: DocumentFormat): Promise<DocumentReply> {
    const tree = await this.nodes.readTree(requireNamespace(ctx), fileId);
    if (!tree) throw DomainError.notFound('IndexedFile', fileId);
    if (!tree.indexed || !tree.root) {
      throw DomainError.conflict(
        `IndexedFile ${fileId} is not indexed yet (status ${tree.status}); its document can be read once indexation has succeeded`,
      );
    }
    const reply: DocumentReply =
      format === 'json'
        ? { format, root: tree.root }
        : { format, content: format === 'markdown' ? renderMarkdown(tree.root) : renderText(tree.root) };
    this.assertFits(reply, fileId);
    return reply;
  }

  /** A reply larger than the NATS message limit would never arrive; say so instead of timing out. */
  private assertFits(reply: DocumentReply, fileId: string): void {
    const limit = this.nc.info?.max_payload;
    if (!limit) return;
    const size = Buffer.byteLength(JSON.stringify(reply)) + ENVELOPE_BYTES;
    if (size > limit) {
      throw new DomainError(
        ErrorCode.PAYLOAD_TOO_LARGE,
        `The document of IndexedFile ${fileId} (about ${size} bytes as ${reply.format}) is larger than one response may be (${limit} bytes)` +
          (reply.format === 'json' ? '; ask for format=text or format=markdown' : ''),
      );
    }
  }
}

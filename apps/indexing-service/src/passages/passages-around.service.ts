import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type PassageDto, type PassagesAroundReply, type PassagesAroundRequest } from '@docintel/contracts';
import { isUuid } from '../tenancy';
import { PassagesRepository, toPassageDto } from './passages.repository';
import { readingWindow } from './reading-order';
import { ReadingOrderRepository } from './reading-order.repository';

/**
 * indexing.passages.around (the agent's read tool): the passage a node is read through and the
 * passages before and after it in the document's reading order, as a search returns passages (the
 * passages table: text, headings, segments with positions), score 0. The order is walked on the
 * node tree from the node outwards (reading-order.ts), all in one snapshot of the file's current
 * tree; a file of another namespace is not found, as an unknown one is.
 */
@Injectable()
export class PassagesAroundService {
  constructor(
    private readonly order: ReadingOrderRepository,
    private readonly passages: PassagesRepository,
  ) {}

  around(namespaceId: string, req: PassagesAroundRequest): Promise<PassagesAroundReply> {
    const { fileId, nodeId } = req;
    const before = req.before ?? 2;
    const after = req.after ?? 2;
    return this.order.snapshot(async (db) => {
      const tree = isUuid(fileId) ? await this.order.currentTree(namespaceId, fileId, db) : null;
      if (!tree) throw DomainError.notFound('IndexedFile', fileId);
      const window = isUuid(nodeId) ? await readingWindow(this.order.reads(tree, db), nodeId, before, after) : null;
      if (!window) throw new DomainError(ErrorCode.NOT_FOUND, `Node ${nodeId} was not found in IndexedFile ${fileId}`);
      if (window.index < 0) {
        throw new DomainError(ErrorCode.NOT_FOUND, `IndexedFile ${fileId} has no passages to read yet (node ${nodeId})`);
      }

      const stored = await this.passages.read(namespaceId, [fileId], window.ids, db);
      const passages: PassageDto[] = [];
      let index = -1;
      window.ids.forEach((id, i) => {
        const p = stored.get(id);
        if (!p) return;
        if (i === window.index) index = passages.length;
        passages.push(toPassageDto(p, 0));
      });
      // The walk and the read share one snapshot: the passage it found is there.
      if (index < 0) throw new DomainError(ErrorCode.NOT_FOUND, `The passage of node ${nodeId} was not found in IndexedFile ${fileId}`);
      return { passages, index };
    });
  }
}

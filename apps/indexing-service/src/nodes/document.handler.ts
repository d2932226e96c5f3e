import { Injectable } from '@nestjs/common';
import { DocumentRequest, Subjects, type DocumentReply, type RpcContext } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { DocumentService } from './document.service';

@Injectable()
export class DocumentHandler {
  constructor(private readonly documents: DocumentService) {}

  @RpcHandler(Subjects.indexing.filesDocument, DocumentRequest)
  read(req: DocumentRequest, ctx: RpcContext): Promise<DocumentReply> {
    return this.documents.read(ctx, req.fileId, req.format);
  }
}

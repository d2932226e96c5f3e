import { Injectable } from '@nestjs/common';
import { DocumentRequest, FilesDocument, type DocumentReply, type RpcContext } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { DocumentService } from './document.service';

@Injectable()
export class DocumentHandler {
  constructor(private readonly documents: DocumentService) {}

  @RpcHandler(FilesDocument)
  read(req: DocumentRequest, ctx: RpcContext): Promise<DocumentReply> {
    return this.documents.read(ctx, req.fileId, req.format);
  }
}

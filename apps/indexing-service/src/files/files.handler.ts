import { Injectable } from '@nestjs/common';
import {
  CreateIndexedFileRequest,
  FileRefRequest,
  ListFilesQueryDto,
  FilesCreate,
  FilesDelete,
  FilesGet,
  FilesList,
  FilesOntologies,
  FilesRecomputeOntologies,
  FilesReindex,
  ReindexFileRequest,
  type IndexedFileDto,
  type OntologyDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler, type JsonBytes } from '@docintel/messaging';
import { FilesService } from './files.service';

@Injectable()
export class FilesHandler {
  constructor(private readonly files: FilesService) {}

  @RpcHandler(FilesList)
  list(query: ListFilesQueryDto, ctx: RpcContext): Promise<JsonBytes<Page<IndexedFileDto>>> {
    return this.files.list(ctx, query);
  }

  @RpcHandler(FilesCreate)
  create(req: CreateIndexedFileRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.files.create(ctx, req);
  }

  @RpcHandler(FilesGet)
  get(req: FileRefRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.files.get(ctx, req.fileId);
  }

  @RpcHandler(FilesDelete)
  async delete(req: FileRefRequest, ctx: RpcContext): Promise<null> {
    await this.files.delete(ctx, req.fileId);
    return null;
  }

  @RpcHandler(FilesReindex)
  async reindex(req: ReindexFileRequest, ctx: RpcContext): Promise<null> {
    await this.files.reindex(ctx, req.fileId, req.reparse);
    return null;
  }

  @RpcHandler(FilesRecomputeOntologies)
  async recomputeOntologies(req: FileRefRequest, ctx: RpcContext): Promise<null> {
    await this.files.recomputeOntologies(ctx, req.fileId);
    return null;
  }

  @RpcHandler(FilesOntologies)
  ontologies(req: FileRefRequest, ctx: RpcContext): Promise<OntologyDto[]> {
    return this.files.ontologiesOf(ctx, req.fileId);
  }
}

import { Injectable } from '@nestjs/common';
import {
  CreateIndexedFileRequest,
  FileRefRequest,
  ListFilesQueryDto,
  ReindexFileRequest,
  Subjects,
  type IndexedFileDto,
  type OntologyDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { FilesService } from './files.service';

@Injectable()
export class FilesHandler {
  constructor(private readonly files: FilesService) {}

  @RpcHandler(Subjects.indexing.filesList, ListFilesQueryDto)
  list(query: ListFilesQueryDto, ctx: RpcContext): Promise<Page<IndexedFileDto>> {
    return this.files.list(ctx, query);
  }

  @RpcHandler(Subjects.indexing.filesCreate, CreateIndexedFileRequest)
  create(req: CreateIndexedFileRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.files.create(ctx, req);
  }

  @RpcHandler(Subjects.indexing.filesGet, FileRefRequest)
  get(req: FileRefRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.files.get(ctx, req.fileId);
  }

  @RpcHandler(Subjects.indexing.filesDelete, FileRefRequest)
  async delete(req: FileRefRequest, ctx: RpcContext): Promise<null> {
    await this.files.delete(ctx, req.fileId);
    return null;
  }

  @RpcHandler(Subjects.indexing.filesReindex, ReindexFileRequest)
  async reindex(req: ReindexFileRequest, ctx: RpcContext): Promise<null> {
    await this.files.reindex(ctx, req.fileId, req.reparse);
    return null;
  }

  @RpcHandler(Subjects.indexing.filesRecomputeOntologies, FileRefRequest)
  async recomputeOntologies(req: FileRefRequest, ctx: RpcContext): Promise<null> {
    await this.files.recomputeOntologies(ctx, req.fileId);
    return null;
  }

  @RpcHandler(Subjects.indexing.filesOntologies, FileRefRequest)
  ontologies(req: FileRefRequest, ctx: RpcContext): Promise<OntologyDto[]> {
    return this.files.ontologiesOf(ctx, req.fileId);
  }
}

import { Injectable } from '@nestjs/common';
import {
  AddFileToCollectionRequest,
  CollectionRefRequest,
  CreateCollectionRequest,
  ListCollectionFilesRequest,
  ListCollectionsQueryDto,
  RemoveFileFromCollectionRequest,
  Subjects,
  UpdateCollectionRequest,
  type CollectionDto,
  type IndexedFileDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { CollectionsService } from './collections.service';

@Injectable()
export class CollectionsHandler {
  constructor(private readonly collections: CollectionsService) {}

  @RpcHandler(Subjects.indexing.collectionsList, ListCollectionsQueryDto)
  list(query: ListCollectionsQueryDto, ctx: RpcContext): Promise<Page<CollectionDto>> {
    return this.collections.list(ctx, query);
  }

  @RpcHandler(Subjects.indexing.collectionsCreate, CreateCollectionRequest)
  create(req: CreateCollectionRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.create(ctx, req);
  }

  @RpcHandler(Subjects.indexing.collectionsGet, CollectionRefRequest)
  get(req: CollectionRefRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.get(ctx, req.collectionId);
  }

  @RpcHandler(Subjects.indexing.collectionsUpdate, UpdateCollectionRequest)
  update(req: UpdateCollectionRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.update(ctx, req);
  }

  @RpcHandler(Subjects.indexing.collectionsDelete, CollectionRefRequest)
  async delete(req: CollectionRefRequest, ctx: RpcContext): Promise<null> {
    await this.collections.delete(ctx, req.collectionId);
    return null;
  }

  @RpcHandler(Subjects.indexing.collectionFilesList, ListCollectionFilesRequest)
  listFiles(req: ListCollectionFilesRequest, ctx: RpcContext): Promise<Page<IndexedFileDto>> {
    return this.collections.listFiles(ctx, req);
  }

  @RpcHandler(Subjects.indexing.collectionFilesAdd, AddFileToCollectionRequest)
  addFile(req: AddFileToCollectionRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.collections.addFile(ctx, req.collectionId, req.fileId);
  }

  @RpcHandler(Subjects.indexing.collectionFilesRemove, RemoveFileFromCollectionRequest)
  async removeFile(req: RemoveFileFromCollectionRequest, ctx: RpcContext): Promise<null> {
    await this.collections.removeFile(ctx, req.collectionId, req.fileId);
    return null;
  }
}

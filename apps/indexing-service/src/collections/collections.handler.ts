import { Injectable } from '@nestjs/common';
import {
  AddFileToCollectionRequest,
  CollectionFilesAdd,
  CollectionFilesList,
  CollectionFilesRemove,
  CollectionRefRequest,
  CollectionsCreate,
  CollectionsDelete,
  CollectionsGet,
  CollectionsList,
  CollectionsUpdate,
  CreateCollectionRequest,
  ListCollectionFilesRequest,
  ListCollectionsQueryDto,
  RemoveFileFromCollectionRequest,
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

  @RpcHandler(CollectionsList)
  list(query: ListCollectionsQueryDto, ctx: RpcContext): Promise<Page<CollectionDto>> {
    return this.collections.list(ctx, query);
  }

  @RpcHandler(CollectionsCreate)
  create(req: CreateCollectionRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.create(ctx, req);
  }

  @RpcHandler(CollectionsGet)
  get(req: CollectionRefRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.get(ctx, req.collectionId);
  }

  @RpcHandler(CollectionsUpdate)
  update(req: UpdateCollectionRequest, ctx: RpcContext): Promise<CollectionDto> {
    return this.collections.update(ctx, req);
  }

  @RpcHandler(CollectionsDelete)
  async delete(req: CollectionRefRequest, ctx: RpcContext): Promise<null> {
    await this.collections.delete(ctx, req.collectionId);
    return null;
  }

  @RpcHandler(CollectionFilesList)
  listFiles(req: ListCollectionFilesRequest, ctx: RpcContext): Promise<Page<IndexedFileDto>> {
    return this.collections.listFiles(ctx, req);
  }

  @RpcHandler(CollectionFilesAdd)
  addFile(req: AddFileToCollectionRequest, ctx: RpcContext): Promise<IndexedFileDto> {
    return this.collections.addFile(ctx, req.collectionId, req.fileId);
  }

  @RpcHandler(CollectionFilesRemove)
  async removeFile(req: RemoveFileFromCollectionRequest, ctx: RpcContext): Promise<null> {
    await this.collections.removeFile(ctx, req.collectionId, req.fileId);
    return null;
  }
}

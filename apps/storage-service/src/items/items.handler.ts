import { Injectable } from '@nestjs/common';
import {
  DownloadUrlRequest,
  ItemKeyRequest,
  ListItemsRequest,
  RenameItemRequest,
  Subjects,
  TransferTargetRequest,
  UploadUrlRequest,
  type DownloadUrlResponseDto,
  type ListItemsResponseDto,
  type ProviderItemDto,
  type RpcContext,
  type TransferTarget,
  type UploadUrlResponseDto,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { ItemsService } from './items.service';

@Injectable()
export class ItemsHandler {
  constructor(private readonly items: ItemsService) {}

  @RpcHandler(Subjects.storage.itemsList, ListItemsRequest)
  list(req: ListItemsRequest, ctx: RpcContext): Promise<ListItemsResponseDto> {
    return this.items.list(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsStat, ItemKeyRequest)
  stat(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.stat(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsCreateFolder, ItemKeyRequest)
  createFolder(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.createFolder(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsDelete, ItemKeyRequest)
  async delete(req: ItemKeyRequest, ctx: RpcContext): Promise<{ deleted: true }> {
    await this.items.delete(ctx, req);
    return { deleted: true };
  }

  @RpcHandler(Subjects.storage.itemsRename, RenameItemRequest)
  rename(req: RenameItemRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.rename(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsUploadUrl, UploadUrlRequest)
  uploadUrl(req: UploadUrlRequest, ctx: RpcContext): Promise<UploadUrlResponseDto> {
    return this.items.uploadUrl(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsConfirm, ItemKeyRequest)
  confirm(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.confirm(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsDownloadUrl, DownloadUrlRequest)
  downloadUrl(req: DownloadUrlRequest, ctx: RpcContext): Promise<DownloadUrlResponseDto> {
    return this.items.downloadUrl(ctx, req);
  }

  @RpcHandler(Subjects.storage.itemsTransferTarget, TransferTargetRequest)
  transferTarget(req: TransferTargetRequest, ctx: RpcContext): Promise<TransferTarget> {
    return this.items.transferTarget(ctx, req);
  }
}

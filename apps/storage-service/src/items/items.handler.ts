import { Injectable } from '@nestjs/common';
import {
  DownloadUrlRequest,
  ItemKeyRequest,
  ItemsConfirm,
  ItemsCreateFolder,
  ItemsDelete,
  ItemsDownloadUrl,
  ItemsList,
  ItemsRename,
  ItemsStat,
  ItemsTransferTarget,
  ItemsUploadUrl,
  ListItemsRequest,
  RenameItemRequest,
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

  @RpcHandler(ItemsList)
  list(req: ListItemsRequest, ctx: RpcContext): Promise<ListItemsResponseDto> {
    return this.items.list(ctx, req);
  }

  @RpcHandler(ItemsStat)
  stat(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.stat(ctx, req);
  }

  @RpcHandler(ItemsCreateFolder)
  createFolder(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.createFolder(ctx, req);
  }

  @RpcHandler(ItemsDelete)
  async delete(req: ItemKeyRequest, ctx: RpcContext): Promise<{ deleted: true }> {
    await this.items.delete(ctx, req);
    return { deleted: true };
  }

  @RpcHandler(ItemsRename)
  rename(req: RenameItemRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.rename(ctx, req);
  }

  @RpcHandler(ItemsUploadUrl)
  uploadUrl(req: UploadUrlRequest, ctx: RpcContext): Promise<UploadUrlResponseDto> {
    return this.items.uploadUrl(ctx, req);
  }

  @RpcHandler(ItemsConfirm)
  confirm(req: ItemKeyRequest, ctx: RpcContext): Promise<ProviderItemDto> {
    return this.items.confirm(ctx, req);
  }

  @RpcHandler(ItemsDownloadUrl)
  downloadUrl(req: DownloadUrlRequest, ctx: RpcContext): Promise<DownloadUrlResponseDto> {
    return this.items.downloadUrl(ctx, req);
  }

  @RpcHandler(ItemsTransferTarget)
  transferTarget(req: TransferTargetRequest, ctx: RpcContext): Promise<TransferTarget> {
    return this.items.transferTarget(ctx, req);
  }
}

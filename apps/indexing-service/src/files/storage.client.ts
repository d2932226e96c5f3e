import { Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  ItemsStat,
  ProvidersGet,
  type ProviderDto,
  type ProviderItemDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ProviderCheckCache } from './provider-check-cache';

/** What indexing asks storage: the provider (its name, and whether the namespace may use it) and an item's facts. */
@Injectable()
export class StorageClient {
  private readonly checked = new ProviderCheckCache();

  constructor(private readonly rpc: RpcClient) {}

  /** 404 when the provider does not exist, 403 when it is not available to the caller's namespace. */
  provider(ctx: RpcContext, providerId: string): Promise<ProviderDto> {
    return this.rpc.call(ProvidersGet, { providerId }, ctx);
  }

  /**
   * As provider(), but a provider the namespace was shown within the last second is not asked for
   * again: for reads that only check access (a page of files), not for writes that record it.
   */
  checkProvider(ctx: RpcContext, providerId: string): Promise<ProviderDto> {
    // storage-service decides by the namespace name; the id is in the key too, so no two namespaces share an entry.
    const namespace = `${ctx.namespaceId ?? ''}/${ctx.namespaceName ?? ''}`;
    return this.checked.get(namespace, providerId, () => this.provider(ctx, providerId));
  }

  /** The file at `key`; 404 (naming provider and key) when there is no file there. */
  async file(ctx: RpcContext, providerId: string, key: string): Promise<ProviderItemDto> {
    const notFound = () => new DomainError(ErrorCode.NOT_FOUND, `No file ${key} in provider ${providerId}`);
    let item: ProviderItemDto;
    try {
      item = await this.rpc.call(ItemsStat, { providerId, key }, ctx);
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) throw notFound();
      throw err;
    }
    if (item.type !== 'FILE') throw notFound();
    return item;
  }
}

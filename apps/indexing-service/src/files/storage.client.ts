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

/** What indexing asks storage: the provider (its name, and whether the namespace may use it) and an item's facts. */
@Injectable()
export class StorageClient {
  constructor(private readonly rpc: RpcClient) {}

  /** 404 when the provider does not exist, 403 when it is not available to the caller's namespace. */
  provider(ctx: RpcContext, providerId: string): Promise<ProviderDto> {
    return this.rpc.call(ProvidersGet, { providerId }, ctx);
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

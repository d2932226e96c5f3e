import { Injectable } from '@nestjs/common';
import {
  GetProviderRequest,
  ListProvidersQueryDto,
  Subjects,
  type Page,
  type ProviderDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { ProvidersService } from './providers.service';

@Injectable()
export class ProvidersHandler {
  constructor(private readonly providers: ProvidersService) {}

  @RpcHandler(Subjects.storage.providersList, ListProvidersQueryDto)
  list(query: ListProvidersQueryDto, ctx: RpcContext): Promise<Page<ProviderDto>> {
    return this.providers.list(ctx, query);
  }

  @RpcHandler(Subjects.storage.providersGet, GetProviderRequest)
  get(req: GetProviderRequest, ctx: RpcContext): Promise<ProviderDto> {
    return this.providers.get(ctx, req.providerId);
  }
}

import { Injectable } from '@nestjs/common';
import {
  GetProviderRequest,
  ListProvidersQueryDto,
  ProvidersGet,
  ProvidersList,
  type Page,
  type ProviderDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { ProvidersService } from './providers.service';

@Injectable()
export class ProvidersHandler {
  constructor(private readonly providers: ProvidersService) {}

  @RpcHandler(ProvidersList)
  list(query: ListProvidersQueryDto, ctx: RpcContext): Promise<Page<ProviderDto>> {
    return this.providers.list(ctx, query);
  }

  @RpcHandler(ProvidersGet)
  get(req: GetProviderRequest, ctx: RpcContext): Promise<ProviderDto> {
    return this.providers.get(ctx, req.providerId);
  }
}

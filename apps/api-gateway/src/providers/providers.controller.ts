import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ListProvidersQueryDto, ProviderDto, ProviderPageDto, ProvidersGet, ProvidersList, type RpcContext } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { Caller } from '../identity/rpc-context.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';

@ApiTags('Providers')
@ApiBearerAuth('TOKEN')
@Controller('api/core/providers')
export class ProvidersController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    operationId: 'listProviders',
    summary: 'List providers',
    description: "Storage providers the caller's namespace may use. Secret fields are redacted.",
  })
  @ApiOkResponse({ type: ProviderPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListProvidersQueryDto, @Caller() ctx: RpcContext): Promise<ProviderPageDto> {
    return this.rpc.call(ProvidersList, query, ctx);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getProvider', summary: 'Get a provider' })
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOkResponse({ type: ProviderDto })
  @ApiErrors(401, 403, 404)
  get(@UuidParam('id') id: string, @Caller() ctx: RpcContext): Promise<ProviderDto> {
    return this.rpc.call(ProvidersGet, { providerId: id }, ctx);
  }
}

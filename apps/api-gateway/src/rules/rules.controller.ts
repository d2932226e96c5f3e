import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  CreateRuleDto,
  RuleDto,
  RuleListDto,
  RulesCreate,
  RulesDelete,
  RulesGet,
  RulesList,
  RulesUpsert,
  TriggerListDto,
  TriggerSchemaDto,
  TriggersList,
  TriggersSchema,
  UpsertRuleDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { Caller } from '../identity/rpc-context.decorator';

/** /v1/rules: namespace-scoped automation. The namespace is the token's, or X-Namespace for members of several. */
@ApiTags('Rules')
@ApiBearerAuth('TOKEN')
@Controller('v1/rules')
export class RulesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('triggers')
  @ApiOperation({ operationId: 'listTriggers', summary: 'List the built-in triggers' })
  @ApiOkResponse({ type: TriggerListDto })
  @ApiErrors(401)
  triggers(@Caller() ctx: RpcContext): Promise<TriggerListDto> {
    return this.rpc.call(TriggersList, {}, ctx);
  }

  @Get('triggers/:trigger_id/schema')
  @ApiOperation({ operationId: 'getTriggerSchema', summary: "A trigger's filter JSON Schema" })
  @ApiOkResponse({ type: TriggerSchemaDto })
  @ApiErrors(401, 404)
  schema(@Param('trigger_id') triggerId: string, @Caller() ctx: RpcContext): Promise<TriggerSchemaDto> {
    return this.rpc.call(TriggersSchema, { trigger_id: triggerId }, ctx);
  }

  @Get()
  @ApiOperation({ operationId: 'listRules', summary: "The namespace's rules" })
  @ApiOkResponse({ type: RuleListDto })
  @ApiErrors(401, 403)
  list(@Caller() ctx: RpcContext): Promise<RuleListDto> {
    return this.rpc.call(RulesList, {}, ctx);
  }

  @Post()
  @ApiOperation({ operationId: 'createRule', summary: 'Create the rule of a trigger (409 when it has one)' })
  @ApiCreatedResponse({ type: RuleDto })
  @ApiErrors(400, 401, 403, 404, 409)
  create(@Body() body: CreateRuleDto, @Caller() ctx: RpcContext): Promise<RuleDto> {
    return this.rpc.call(RulesCreate, body, ctx);
  }

  @Get(':trigger_id')
  @ApiOperation({ operationId: 'getRule', summary: "A trigger's rule in the namespace" })
  @ApiOkResponse({ type: RuleDto })
  @ApiErrors(401, 403, 404)
  get(@Param('trigger_id') triggerId: string, @Caller() ctx: RpcContext): Promise<RuleDto> {
    return this.rpc.call(RulesGet, { trigger_id: triggerId }, ctx);
  }

  @Put(':trigger_id')
  @ApiOperation({ operationId: 'upsertRule', summary: 'Create (201) or replace (200) the rule of a trigger' })
  @ApiOkResponse({ type: RuleDto, description: 'Updated' })
  @ApiCreatedResponse({ type: RuleDto, description: 'Created' })
  @ApiErrors(400, 401, 403, 404)
  async upsert(
    @Param('trigger_id') triggerId: string,
    @Body() body: UpsertRuleDto,
    @Caller() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RuleDto> {
    const { rule, created } = await this.rpc.call(RulesUpsert, { trigger_id: triggerId, filter: body.filter }, ctx);
    void reply.status(created ? 201 : 200);
    return rule;
  }

  @Delete(':trigger_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteRule', summary: 'Delete the rule: disables the trigger in the namespace' })
  @ApiNoContentResponse()
  @ApiErrors(401, 403, 404)
  async delete(@Param('trigger_id') triggerId: string, @Caller() ctx: RpcContext): Promise<void> {
    await this.rpc.call(RulesDelete, { trigger_id: triggerId }, ctx);
  }
}

import { Injectable } from '@nestjs/common';
import {
  CreateRuleDto,
  EvaluateRulesRequest,
  RulesCreate,
  RulesDelete,
  RulesEvaluate,
  RulesGet,
  RulesList,
  RulesUpsert,
  TriggerRefRequest,
  TriggersList,
  TriggersSchema,
  UpsertRuleRequest,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { RulesService } from './rules.service';

@Injectable()
export class RulesHandler {
  constructor(private readonly rules: RulesService) {}

  @RpcHandler(TriggersList)
  triggers() {
    return this.rules.triggers();
  }

  @RpcHandler(TriggersSchema)
  schema(req: TriggerRefRequest) {
    return this.rules.schema(req.trigger_id);
  }

  @RpcHandler(RulesList)
  list(_: unknown, ctx: RpcContext) {
    return this.rules.list(ctx);
  }

  @RpcHandler(RulesGet)
  get(req: TriggerRefRequest, ctx: RpcContext) {
    return this.rules.get(ctx, req.trigger_id);
  }

  @RpcHandler(RulesCreate)
  create(req: CreateRuleDto, ctx: RpcContext) {
    return this.rules.create(ctx, req.trigger_id, req.filter);
  }

  @RpcHandler(RulesUpsert)
  upsert(req: UpsertRuleRequest, ctx: RpcContext) {
    return this.rules.upsert(ctx, req.trigger_id, req.filter);
  }

  @RpcHandler(RulesDelete)
  async delete(req: TriggerRefRequest, ctx: RpcContext): Promise<Record<string, never>> {
    await this.rules.delete(ctx, req.trigger_id);
    return {};
  }

  @RpcHandler(RulesEvaluate)
  evaluate(req: EvaluateRulesRequest, ctx: RpcContext) {
    return this.rules.evaluate(ctx, req.trigger_id, req.facts);
  }
}

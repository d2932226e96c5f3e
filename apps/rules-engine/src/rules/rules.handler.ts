import { Injectable } from '@nestjs/common';
import {
  CreateRuleDto,
  EvaluateRulesRequest,
  Subjects,
  TriggerRefRequest,
  UpsertRuleRequest,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { RulesService } from './rules.service';

@Injectable()
export class RulesHandler {
  constructor(private readonly rules: RulesService) {}

  @RpcHandler(Subjects.rules.triggersList)
  triggers() {
    return this.rules.triggers();
  }

  @RpcHandler(Subjects.rules.triggersSchema, TriggerRefRequest)
  schema(req: TriggerRefRequest) {
    return this.rules.schema(req.trigger_id);
  }

  @RpcHandler(Subjects.rules.rulesList)
  list(_: unknown, ctx: RpcContext) {
    return this.rules.list(ctx);
  }

  @RpcHandler(Subjects.rules.rulesGet, TriggerRefRequest)
  get(req: TriggerRefRequest, ctx: RpcContext) {
    return this.rules.get(ctx, req.trigger_id);
  }

  @RpcHandler(Subjects.rules.rulesCreate, CreateRuleDto)
  create(req: CreateRuleDto, ctx: RpcContext) {
    return this.rules.create(ctx, req.trigger_id, req.filter);
  }

  @RpcHandler(Subjects.rules.rulesUpsert, UpsertRuleRequest)
  upsert(req: UpsertRuleRequest, ctx: RpcContext) {
    return this.rules.upsert(ctx, req.trigger_id, req.filter);
  }

  @RpcHandler(Subjects.rules.rulesDelete, TriggerRefRequest)
  async delete(req: TriggerRefRequest, ctx: RpcContext): Promise<Record<string, never>> {
    await this.rules.delete(ctx, req.trigger_id);
    return {};
  }

  @RpcHandler(Subjects.rules.evaluate, EvaluateRulesRequest)
  evaluate(req: EvaluateRulesRequest, ctx: RpcContext) {
    return this.rules.evaluate(ctx, req.trigger_id, req.facts);
  }
}

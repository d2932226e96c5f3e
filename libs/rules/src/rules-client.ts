import { Injectable } from '@nestjs/common';
import { RulesEvaluate, type RuleDecision, type RuleFacts, type RpcContext, type TriggerId } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';

/**
 * How any service asks whether a trigger runs for an operation. It asks the rules-engine each
 * time, so a rule change applies to the very next operation on every replica: no cache to expire.
 */
@Injectable()
export class RulesClient {
  constructor(private readonly rpc: RpcClient) {}

  evaluate(ctx: RpcContext, triggerId: TriggerId, facts: RuleFacts): Promise<RuleDecision> {
    return this.rpc.call(RulesEvaluate, { trigger_id: triggerId, facts }, ctx);
  }
}

import { Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  FILTER_REQUIRED,
  type RpcContext,
  type RuleDecision,
  type RuleDto,
  type RuleFacts,
  type RuleFilter,
  type RuleListDto,
  type TriggerDto,
  type TriggerId,
  type TriggerSchemaDto,
} from '@docintel/contracts';
import { decide, filterProblems, findTrigger, TRIGGERS, triggerSummary } from '@docintel/rules';
import type { RuleEntity } from './rule.entity';
import { RulesRepository } from './rules.repository';
import { filterPreview } from './filter-preview';

/**
 * A rule as the API shows it. A rule stored before the current limits or pattern syntax may no
 * longer fit its trigger's schema: it is shown with its problems (and its filter shortened when
 * it is too big to send), so that listing rules never sends an unbounded reply.
 */
function toDto(r: RuleEntity): RuleDto {
  const dto: RuleDto = {
    trigger_id: r.triggerId,
    namespace: r.namespace,
    filter: r.filter,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
  const problems = filterProblems(r.triggerId, r.filter);
  if (!problems.length) return dto;
  const preview = filterPreview(r.filter);
  return { ...dto, filter: preview.filter, problems, ...(preview.truncated ? { filter_truncated: true } : {}) };
}

function namespaceOf(ctx: RpcContext): string {
  if (!ctx.namespaceName) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace');
  return ctx.namespaceName;
}

function triggerOf(id: string): TriggerId {
  const t = findTrigger(id);
  if (!t) {
    throw new DomainError(ErrorCode.NOT_FOUND, `Unknown trigger ${id}; known triggers: ${Object.keys(TRIGGERS).join(', ')}`);
  }
  return t.trigger_id;
}

/**
 * The filter of a request, validated against the trigger's schema. A missing or null filter is an
 * error, never "match everything": a PUT that lost its body must not widen a rule.
 */
function validFilter(triggerId: TriggerId, filter: unknown): RuleFilter {
  if (filter === undefined || filter === null) throw DomainError.invalid([{ field: 'filter', problem: FILTER_REQUIRED }]);
  const problems = filterProblems(triggerId, filter);
  if (problems.length) throw DomainError.invalid(problems, `The filter does not fit the ${triggerId} trigger's schema`);
  return filter as RuleFilter;
}

@Injectable()
export class RulesService {
  constructor(private readonly rules: RulesRepository) {}

  triggers(): { triggers: TriggerDto[] } {
    return { triggers: Object.values(TRIGGERS).map(triggerSummary) };
  }

  schema(triggerId: string): TriggerSchemaDto {
    const id = triggerOf(triggerId);
    return { trigger_id: id, schema: TRIGGERS[id].schema };
  }

  async list(ctx: RpcContext): Promise<RuleListDto> {
    const namespace = namespaceOf(ctx);
    return { namespace, rules: (await this.rules.list(namespace)).map(toDto) };
  }

  async get(ctx: RpcContext, triggerId: string): Promise<RuleDto> {
    const id = triggerOf(triggerId);
    const rule = await this.rules.get(namespaceOf(ctx), id);
    if (!rule) throw new DomainError(ErrorCode.NOT_FOUND, `No ${id} rule in this namespace: the trigger is disabled here`);
    return toDto(rule);
  }

  /** POST may leave the filter out (the empty filter); null is refused like any non-object. */
  async create(ctx: RpcContext, triggerId: string, filter: unknown): Promise<RuleDto> {
    const id = triggerOf(triggerId);
    const rule = await this.rules.create(namespaceOf(ctx), id, validFilter(id, filter === undefined ? {} : filter));
    if (!rule) throw DomainError.conflict(`The ${id} trigger already has a rule in this namespace; use PUT /v1/rules/${id} to change it`);
    return toDto(rule);
  }

  async upsert(ctx: RpcContext, triggerId: string, filter: unknown): Promise<{ rule: RuleDto; created: boolean }> {
    const id = triggerOf(triggerId);
    const { rule, created } = await this.rules.upsert(namespaceOf(ctx), id, validFilter(id, filter));
    return { rule: toDto(rule), created };
  }

  async delete(ctx: RpcContext, triggerId: string): Promise<void> {
    const id = triggerOf(triggerId);
    if (!(await this.rules.delete(namespaceOf(ctx), id))) {
      throw new DomainError(ErrorCode.NOT_FOUND, `No ${id} rule in this namespace`);
    }
  }

  /** Reads the rule fresh on every call: a change applies to the very next operation. */
  async evaluate(ctx: RpcContext, triggerId: string, facts: RuleFacts): Promise<RuleDecision> {
    const id = triggerOf(triggerId);
    const rule = await this.rules.get(namespaceOf(ctx), id);
    if (!rule) return { run: false, reason: `the ${id} trigger is disabled in this namespace (no rule)` };
    // A rule stored before the current limits or pattern syntax is not applied half-understood.
    const problems = filterProblems(id, rule.filter);
    if (problems.length) {
      const first = problems[0];
      return {
        run: false,
        reason: `the ${id} rule's filter no longer fits the trigger's schema (${first.field} ${first.problem}); replace it with PUT /v1/rules/${id}`,
      };
    }
    return decide(rule.filter, facts);
  }
}

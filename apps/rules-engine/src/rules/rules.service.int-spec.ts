import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ErrorCode, type RpcContext } from '@docintel/contracts';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { FILTER_LIMITS } from '@docintel/rules';
import { domainRejection, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { migrations } from '../migrations';
import { RuleEntity } from './rule.entity';
import { RulesRepository } from './rules.repository';
import { RulesService } from './rules.service';

let infra: TestInfrastructure;
let ds: DataSource;
let rules: RulesService;

beforeAll(async () => {
  infra = await startTestInfrastructure('rulessvc');
  const opts = { url: infra.databaseUrl, schema: 'rules', entities: [RuleEntity], migrations, poolSize: 5 };
  ds = await initializeDataSource(createDataSource(opts), opts);
  rules = new RulesService(new RulesRepository(ds));
});
afterAll(async () => {
  await ds?.destroy();
  await infra?.teardown();
});

const caller = (): RpcContext => ({ requestId: randomUUID(), namespaceName: `ns-${randomUUID().slice(0, 8)}` });

/** Writes a filter straight into the table, as a rule stored before the current limits would be. */
async function storeDirectly(ctx: RpcContext, triggerId: string, filter: unknown): Promise<void> {
  await rules.list(ctx); // seeds the namespace's default rules
  await ds.query(`UPDATE rules SET filter = $3::jsonb, updated_at = now() WHERE namespace = $1 AND trigger_id = $2`, [
    ctx.namespaceName,
    triggerId,
    JSON.stringify(filter),
  ]);
}

describe('RulesService with rules stored before the limits', () => {
  it('lists oversized rules with their problems and a shortened filter, in a bounded reply', async () => {
    const ctx = caller();
    const huge = 'a'.repeat(600_000);
    await storeDirectly(ctx, 'corpus_parsing', { mime_types: [huge] });
    await storeDirectly(ctx, 'node_embedding', { mime_types: [huge], content_patterns: ['(?<=x)y'] });

    const list = await rules.list(ctx);
    // Two 600 kB rules used to make a reply above the NATS max payload (1 MiB).
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThan(64 * 1024);
    const byTrigger = Object.fromEntries(list.rules.map((r) => [r.trigger_id, r]));
    expect(byTrigger.corpus_parsing).toMatchObject({
      filter: { mime_types: ['a'.repeat(FILTER_LIMITS.maxStringLength)] },
      filter_truncated: true,
      problems: [
        { field: 'filter.mime_types[0]', problem: 'must be at most 1000 characters long' },
        { field: 'filter', problem: 'is 600019 bytes as JSON, the limit is 16384 bytes' },
      ],
    });
    expect(byTrigger.node_embedding.problems).toEqual(
      expect.arrayContaining([
        { field: 'filter.content_patterns[0]', problem: expect.stringMatching(/^is not a valid regular expression/) },
      ]),
    );
    // A rule that fits its schema is shown as it is, without the extra fields.
    expect(byTrigger.formula_augmentation).toEqual(expect.objectContaining({ filter: {} }));
    expect(byTrigger.formula_augmentation).not.toHaveProperty('problems');
    expect(byTrigger.formula_augmentation).not.toHaveProperty('filter_truncated');

    const one = await rules.get(ctx, 'corpus_parsing');
    expect(one.filter_truncated).toBe(true);
  });

  it('shows a small rule that no longer fits whole, with its problems', async () => {
    const ctx = caller();
    await storeDirectly(ctx, 'node_embedding', { content_patterns: ['(a)\\1', 'ok'] });
    const rule = await rules.get(ctx, 'node_embedding');
    expect(rule.filter).toEqual({ content_patterns: ['(a)\\1', 'ok'] });
    expect(rule.filter_truncated).toBeUndefined();
    expect(rule.problems).toEqual([{ field: 'filter.content_patterns[0]', problem: expect.stringContaining('RE2 syntax') }]);
  });

  it('does not apply such a rule, and says why and how to fix it', async () => {
    const ctx = caller();
    await storeDirectly(ctx, 'corpus_parsing', { mime_types: ['a'.repeat(600_000)] });
    const decision = await rules.evaluate(ctx, 'corpus_parsing', { mimeType: 'application/pdf', size: 10 });
    expect(decision).toEqual({
      run: false,
      reason:
        "the corpus_parsing rule's filter no longer fits the trigger's schema (filter.mime_types[0] must be at most 1000 characters long); replace it with PUT /v1/rules/corpus_parsing",
    });
    // Replacing it with PUT makes the rule apply again.
    await rules.upsert(ctx, 'corpus_parsing', { mime_types: ['application/pdf'] });
    expect(await rules.evaluate(ctx, 'corpus_parsing', { mimeType: 'application/pdf', size: 10 })).toMatchObject({ run: true });
  });
});

describe('RulesService filter presence', () => {
  it('refuses a PUT without a filter or with filter null, and keeps the rule', async () => {
    const ctx = caller();
    await rules.upsert(ctx, 'corpus_parsing', { mime_types: ['application/pdf'] });
    for (const filter of [undefined, null]) {
      const err = await domainRejection(rules.upsert(ctx, 'corpus_parsing', filter));
      expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(err.details).toEqual([{ field: 'filter', problem: 'is required and must be an object ({} matches everything)' }]);
    }
    expect((await rules.get(ctx, 'corpus_parsing')).filter).toEqual({ mime_types: ['application/pdf'] });
    // The empty object is a filter: it matches everything.
    expect((await rules.upsert(ctx, 'corpus_parsing', {})).rule.filter).toEqual({});
  });

  it('creates with the empty filter when POST leaves it out, refuses null', async () => {
    const ctx = caller();
    await rules.delete(ctx, 'node_embedding');
    expect((await domainRejection(rules.create(ctx, 'node_embedding', null))).details).toEqual([
      { field: 'filter', problem: expect.any(String) },
    ]);
    expect((await rules.create(ctx, 'node_embedding', undefined)).filter).toEqual({});
  });

  it('refuses NUL in a filter string with 400 naming the field, before PostgreSQL sees it', async () => {
    const ctx = caller();
    const err = await domainRejection(rules.upsert(ctx, 'corpus_parsing', { mime_types: ['application/pdf\u0000'] }));
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.details).toEqual([{ field: 'filter.mime_types[0]', problem: expect.stringContaining('NUL') }]);
  });
});

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TRIGGER_IDS, type RuleFilter, type TriggerId } from '@docintel/contracts';
import { RuleEntity } from './rule.entity';

/** Rules of one namespace. Every method takes the namespace; defaults are seeded on first use. */
@Injectable()
export class RulesRepository {
  constructor(private readonly ds: DataSource) {}

  /** Gives a namespace seen for the first time its default rule per trigger (empty filter: everything). */
  private async seed(em: EntityManager, namespace: string): Promise<void> {
    const inserted: unknown[] = await em.query(
      `INSERT INTO seeded_namespaces (namespace, seeded_at) VALUES ($1, now()) ON CONFLICT DO NOTHING RETURNING namespace`,
      [namespace],
    );
    if (!inserted.length) return;
    for (const triggerId of TRIGGER_IDS) {
      await em.query(
        `INSERT INTO rules (namespace, trigger_id, filter, created_at, updated_at) VALUES ($1, $2, '{}'::jsonb, now(), now())
         ON CONFLICT DO NOTHING`,
        [namespace, triggerId],
      );
    }
  }

  async list(namespace: string): Promise<RuleEntity[]> {
    return this.ds.transaction(async (em) => {
      await this.seed(em, namespace);
      return em.find(RuleEntity, { where: { namespace }, order: { triggerId: 'ASC' } });
    });
  }

  async get(namespace: string, triggerId: TriggerId): Promise<RuleEntity | null> {
    return this.ds.transaction(async (em) => {
      await this.seed(em, namespace);
      return em.findOneBy(RuleEntity, { namespace, triggerId });
    });
  }

  /** Inserts a rule; null when the trigger already has one in the namespace. */
  async create(namespace: string, triggerId: TriggerId, filter: RuleFilter): Promise<RuleEntity | null> {
    return this.ds.transaction(async (em) => {
      await this.seed(em, namespace);
      const rows: unknown[] = await em.query(
        `INSERT INTO rules (namespace, trigger_id, filter, created_at, updated_at) VALUES ($1, $2, $3, now(), now())
         ON CONFLICT DO NOTHING RETURNING trigger_id`,
        [namespace, triggerId, JSON.stringify(filter)],
      );
      return rows.length ? em.findOneByOrFail(RuleEntity, { namespace, triggerId }) : null;
    });
  }

  /** Creates or replaces the rule's filter; says which happened. */
  async upsert(namespace: string, triggerId: TriggerId, filter: RuleFilter): Promise<{ rule: RuleEntity; created: boolean }> {
    return this.ds.transaction(async (em) => {
      await this.seed(em, namespace);
      const rows: Array<{ created: boolean }> = await em.query(
        `INSERT INTO rules (namespace, trigger_id, filter, created_at, updated_at) VALUES ($1, $2, $3, now(), now())
         ON CONFLICT (namespace, trigger_id) DO UPDATE SET filter = EXCLUDED.filter, updated_at = now()
         RETURNING (xmax = 0) AS created`,
        [namespace, triggerId, JSON.stringify(filter)],
      );
      return { rule: await em.findOneByOrFail(RuleEntity, { namespace, triggerId }), created: rows[0].created };
    });
  }

  /** Deletes the rule, disabling the trigger in the namespace; false when there was none. */
  async delete(namespace: string, triggerId: TriggerId): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      await this.seed(em, namespace);
      const res = await em.delete(RuleEntity, { namespace, triggerId });
      return (res.affected ?? 0) > 0;
    });
  }
}

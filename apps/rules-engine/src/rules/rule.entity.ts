import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RuleFilter, TriggerId } from '@docintel/contracts';

/** A namespace's rule for one trigger. No row means the trigger is disabled there (once defaults were seeded). */
@Entity({ name: 'rules' })
export class RuleEntity {
  @PrimaryColumn('text')
  namespace: string;

  @PrimaryColumn('text', { name: 'trigger_id' })
  triggerId: TriggerId;

  @Column('jsonb')
  filter: RuleFilter;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

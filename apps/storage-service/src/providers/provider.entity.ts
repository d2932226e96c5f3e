import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ProviderType } from '@docintel/contracts';
import type { NamespaceRoots } from './namespace-roots';

/** A configured storage provider. `settings` holds the whole configuration, secrets included; it never leaves the service. */
@Entity({ name: 'providers' })
export class ProviderEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  icon: string | null;

  @Column('text')
  type: ProviderType;

  @Column('jsonb')
  settings: Record<string, unknown>;

  /** Namespace names that may use the provider; null means every namespace. */
  @Column('text', { array: true, nullable: true })
  namespaces: string[] | null;

  /** Where each namespace's items live inside the provider; null: the namespaces share the whole provider. */
  @Column('jsonb', { name: 'namespace_roots', nullable: true })
  namespaceRoots: NamespaceRoots | null;

  @Column('boolean', { default: true })
  system: boolean;

  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  @Column('bigint', { name: 'created_time', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  createdTime: number;
}

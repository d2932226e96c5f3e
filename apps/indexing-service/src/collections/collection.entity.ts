import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/** A named group of IndexedFiles of one namespace; its files are linked through collection_files. */
@Entity({ name: 'collections' })
export class CollectionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'namespace_id' })
  namespaceId: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { nullable: true })
  icon: string | null;

  /** The creator: the only user who may update or delete the collection. */
  @Column('uuid', { name: 'owner_id' })
  ownerId: string;

  @Column('text', { name: 'owner_email' })
  ownerEmail: string;

  @Column('text', { name: 'owner_first_name' })
  ownerFirstName: string;

  @Column('text', { name: 'owner_last_name' })
  ownerLastName: string;

  @Column('text', { name: 'owner_avatar_url' })
  ownerAvatarUrl: string;

  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  @Column('bigint', { name: 'created_time', transformer: bigintNumber })
  createdTime: number;
}

/** A collection together with the number of files it holds, counted when read. */
export interface CollectionWithCount {
  collection: CollectionEntity;
  filesCount: number;
}

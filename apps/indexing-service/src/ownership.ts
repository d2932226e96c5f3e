import { Column, PrimaryColumn } from 'typeorm';
import type { OwnerProfileDto } from '@docintel/contracts';

/** epoch-ms bigints as numbers (pg hands bigints over as strings). */
export const bigintNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** The user who creates an IndexedFile or a collection, as shown beside it: copied when it is created. */
export interface RecordOwner {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarUrl: string;
}

/** The owner of a new record: the calling user, with the profile the gateway sent (missing names empty). */
export function recordOwner(userId: string, profile: OwnerProfileDto): RecordOwner {
  return {
    id: userId,
    email: profile.email,
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    avatarUrl: profile.avatarUrl ?? '',
  };
}

/** The owner's values in the order of its columns: owner_id, owner_email, owner_first_name, owner_last_name, owner_avatar_url. */
export const ownerColumnValues = (o: RecordOwner): string[] => [o.id, o.email, o.firstName, o.lastName, o.avatarUrl];

/**
 * What an IndexedFile and a collection both are: a record of one namespace, created by a user who
 * owns it (the only one who may change or delete it), under a policy of its own.
 */
export abstract class OwnedRecordEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'namespace_id' })
  namespaceId: string;

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

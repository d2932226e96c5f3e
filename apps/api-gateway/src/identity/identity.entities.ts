import { Column, Entity, PrimaryColumn } from 'typeorm';

const epochMs = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A tenant: every IndexedFile, collection and rule belongs to exactly one. */
@Entity({ name: 'namespaces' })
export class NamespaceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { unique: true })
  name: string;

  @Column('bigint', { name: 'created_time', transformer: epochMs })
  createdTime: number;
}

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { unique: true })
  email: string;

  @Column('text', { name: 'first_name', default: '' })
  firstName: string;

  @Column('text', { name: 'last_name', default: '' })
  lastName: string;

  @Column('bigint', { name: 'created_time', transformer: epochMs })
  createdTime: number;
}

@Entity({ name: 'memberships' })
export class MembershipEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('uuid', { name: 'namespace_id' })
  namespaceId: string;

  @Column('bigint', { name: 'created_time', transformer: epochMs })
  createdTime: number;
}

/** A personal access token. Only the SHA-256 of its secret is stored; the token is shown once. */
@Entity({ name: 'access_tokens' })
export class AccessTokenEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  /** The namespace the token acts in unless the request names another one the user belongs to. */
  @Column('uuid', { name: 'namespace_id' })
  namespaceId: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'secret_hash' })
  secretHash: string;

  @Column('bigint', { name: 'created_time', transformer: epochMs })
  createdTime: number;

  @Column('bigint', { name: 'expires_time', nullable: true, transformer: epochMs })
  expiresTime: number | null;

  @Column('bigint', { name: 'revoked_time', nullable: true, transformer: epochMs })
  revokedTime: number | null;
}

export const identityEntities = [NamespaceEntity, UserEntity, MembershipEntity, AccessTokenEntity];

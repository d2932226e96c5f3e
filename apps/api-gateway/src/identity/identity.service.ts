import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError, ErrorCode } from '@docintel/contracts';
import { AccessTokenEntity, MembershipEntity, NamespaceEntity, UserEntity } from './identity.entities';
import { MAX_TOKEN_DAYS, TOKEN_REVOKED_CHANNEL, tokenRequestProblem, type CreatedToken, type TokenSummary } from './identity-rules';
import type { Principal } from './principal';
import { TokenCache } from './token-cache';
import { formatToken, hashSecret, newTokenSecret, parseToken, secretMatches } from './token-format';

export { MAX_TOKEN_DAYS, TOKEN_REVOKED_CHANNEL, type CreatedToken, type TokenSummary };

interface TokenRow {
  secret_hash: string;
  expires_time: string | null;
  revoked_time: string | null;
  user_id: string;
  email: string;
  namespace_id: string;
  namespace_name: string;
}

const unauthenticated = (message: string) => new DomainError(ErrorCode.UNAUTHENTICATED, message);

/** The cache of verified tokens (and of memberships named by X-Namespace), when the process keeps one. */
export const IDENTITY_CACHE = Symbol('IDENTITY_CACHE');
export type IdentityCache = TokenCache<TokenRow | { id: string; name: string }>;

/** Namespaces, users, memberships and personal access tokens. */
@Injectable()
export class IdentityService {
  constructor(
    private readonly ds: DataSource,
    @Optional() @Inject(IDENTITY_CACHE) private readonly cache: IdentityCache | null = null,
  ) {}

  /** Creates whatever of namespace, user and membership is missing, then a new token; the token is returned once. */
  async createToken(opts: { namespace: string; email: string; name?: string; expiresInDays?: number }): Promise<CreatedToken> {
    const problem = tokenRequestProblem(opts);
    if (problem) throw DomainError.invalid([problem]);
    return this.ds.transaction(async (em) => {
      const now = Date.now();
      const ns = await this.ensureNamespace(em, opts.namespace, now);
      const user = await this.ensureUser(em, opts.email.toLowerCase(), now);
      await em.query(`INSERT INTO memberships (user_id, namespace_id, created_time) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        user.row.id,
        ns.row.id,
        now,
      ]);
      const secret = newTokenSecret();
      const token = em.create(AccessTokenEntity, {
        id: randomUUID(),
        userId: user.row.id,
        namespaceId: ns.row.id,
        name: opts.name ?? 'personal access token',
        secretHash: hashSecret(secret),
        createdTime: now,
        expiresTime: opts.expiresInDays ? now + opts.expiresInDays * 86_400_000 : null,
        revokedTime: null,
      });
      await em.save(token);
      return {
        token: formatToken(token.id, secret),
        tokenId: token.id,
        namespace: ns.row.name,
        email: user.row.email,
        expiresTime: token.expiresTime,
        createdNamespace: ns.created,
        createdUser: user.created,
      };
    });
  }

  private async ensureNamespace(em: EntityManager, name: string, now: number) {
    await em.query(`INSERT INTO namespaces (id, name, created_time) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [
      randomUUID(),
      name,
      now,
    ]);
    const row = await em.findOneByOrFail(NamespaceEntity, { name });
    return { row, created: row.createdTime === now };
  }

  private async ensureUser(em: EntityManager, email: string, now: number) {
    await em.query(`INSERT INTO users (id, email, created_time) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`, [
      randomUUID(),
      email,
      now,
    ]);
    const row = await em.findOneByOrFail(UserEntity, { email });
    return { row, created: row.createdTime === now };
  }

  /** Adds an existing or new user to a namespace without issuing a token. */
  async addMember(namespace: string, email: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const now = Date.now();
      const ns = await this.ensureNamespace(em, namespace, now);
      const user = await this.ensureUser(em, email.toLowerCase(), now);
      await em.save(MembershipEntity, { userId: user.row.id, namespaceId: ns.row.id, createdTime: now });
    });
  }

  /** Revokes a token by id; false when there is no such token. Revoking twice keeps the first time. */
  async revokeToken(tokenId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(tokenId)) return false;
    const res = await this.ds.query(`UPDATE access_tokens SET revoked_time = COALESCE(revoked_time, $2) WHERE id = $1 RETURNING id`, [
      tokenId,
      Date.now(),
    ]);
    const revoked = (res[0] as unknown[]).length > 0;
    if (revoked) await this.ds.query('SELECT pg_notify($1, $2)', [TOKEN_REVOKED_CHANNEL, tokenId]);
    this.cache?.evict(tokenId);
    return revoked;
  }

  async listTokens(filter: { namespace?: string; email?: string } = {}): Promise<TokenSummary[]> {
    const rows: Array<Record<string, string | null>> = await this.ds.query(
      `SELECT t.id, t.name, u.email, n.name AS namespace, t.created_time, t.expires_time, t.revoked_time
         FROM access_tokens t JOIN users u ON u.id = t.user_id JOIN namespaces n ON n.id = t.namespace_id
        WHERE ($1::text IS NULL OR n.name = $1) AND ($2::text IS NULL OR u.email = lower($2))
        ORDER BY t.created_time, t.id`,
      [filter.namespace ?? null, filter.email ?? null],
    );
    const num = (v: string | null) => (v === null ? null : Number(v));
    return rows.map((r) => ({
      id: r.id as string,
      name: r.name as string,
      email: r.email as string,
      namespace: r.namespace as string,
      createdTime: Number(r.created_time),
      expiresTime: num(r.expires_time),
      revokedTime: num(r.revoked_time),
    }));
  }

  /**
   * Checks `Authorization: Bearer <token>` and the optional `X-Namespace` header.
   * 401 for a missing, malformed, unknown, revoked or expired token; 403 for a namespace the user is not in.
   */
  async authenticate(authorization: string | undefined, namespaceHeader: string | undefined): Promise<Principal> {
    if (!authorization) throw unauthenticated('Missing Authorization header; send Authorization: Bearer <token>');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw unauthenticated('Malformed Authorization header; expected Bearer <token>');
    const parsed = parseToken(m[1]);
    if (!parsed) throw unauthenticated('Malformed access token');
    const row = (await this.cached(parsed.tokenId, async () => {
      const rows: TokenRow[] = await this.ds.query(
        `SELECT t.secret_hash, t.expires_time, t.revoked_time, u.id AS user_id, u.email, n.id AS namespace_id, n.name AS namespace_name
           FROM access_tokens t JOIN users u ON u.id = t.user_id JOIN namespaces n ON n.id = t.namespace_id
          WHERE t.id = $1`,
        [parsed.tokenId],
      );
      return rows[0];
    })) as TokenRow | undefined;
    if (!row || !secretMatches(parsed.secret, row.secret_hash)) throw unauthenticated('Unknown access token');
    if (row.revoked_time !== null) throw unauthenticated('This access token has been revoked');
    if (row.expires_time !== null && Number(row.expires_time) <= Date.now()) throw unauthenticated('This access token has expired');
    const principal: Principal = {
      tokenId: parsed.tokenId,
      userId: row.user_id,
      email: row.email,
      namespaceId: row.namespace_id,
      namespaceName: row.namespace_name,
    };
    const wanted = namespaceHeader?.trim();
    if (!wanted || wanted === row.namespace_name) return principal;
    const member = (await this.cached(`${parsed.tokenId}\u0000${wanted}`, async () => {
      const rows: Array<{ id: string; name: string }> = await this.ds.query(
        `SELECT n.id, n.name FROM namespaces n JOIN memberships m ON m.namespace_id = n.id WHERE n.name = $1 AND m.user_id = $2`,
        [wanted, row.user_id],
      );
      return rows[0];
    })) as { id: string; name: string } | undefined;
    if (!member) throw DomainError.forbidden(`You are not a member of namespace ${wanted}`);
    return { ...principal, namespaceId: member.id, namespaceName: member.name };
  }

  private cached<T extends TokenRow | { id: string; name: string }>(key: string, load: () => Promise<T | undefined>) {
    return this.cache ? this.cache.get(key, load) : load();
  }
}

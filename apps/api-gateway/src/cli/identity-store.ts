import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { TOKEN_REVOKED_CHANNEL, tokenRequestProblem, type CreatedToken, type TokenSummary } from '../identity/identity-rules';
import { formatToken, hashSecret, newTokenSecret, parseToken, secretMatches } from '../identity/token-format';

/**
 * What the CLI does to the identity schema, with the SQL IdentityService runs through TypeORM
 * (the same statements in the same transactions, the same token format and hash), over one `pg`
 * connection so that a command loads neither TypeORM nor Nest.
 */

/** A refused request, printed as IdentityService's DomainError.invalid reads: the message, then each field's problem. */
export class InvalidRequestError extends Error {
  constructor(readonly details: Array<{ field: string; problem: string }>) {
    super('The request is invalid');
  }
}

interface Named {
  id: string;
  name: string;
  createdTime: number;
}

const num = (v: string | null) => (v === null ? null : Number(v));

export class CliIdentity {
  constructor(private readonly db: Client) {}

  /** IdentityService.createToken. */
  async createToken(opts: { namespace: string; email: string; name?: string; expiresInDays?: number }): Promise<CreatedToken> {
    const problem = tokenRequestProblem(opts);
    if (problem) throw new InvalidRequestError([problem]);
    return this.transaction(async () => {
      const now = Date.now();
      const ns = await this.ensureNamespace(opts.namespace, now);
      const user = await this.ensureUser(opts.email.toLowerCase(), now);
      await this.db.query(`INSERT INTO memberships (user_id, namespace_id, created_time) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        user.row.id,
        ns.row.id,
        now,
      ]);
      const secret = newTokenSecret();
      const id = randomUUID();
      const expiresTime = opts.expiresInDays ? now + opts.expiresInDays * 86_400_000 : null;
      await this.db.query(
        `INSERT INTO access_tokens (id, user_id, namespace_id, name, secret_hash, created_time, expires_time, revoked_time)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, user.row.id, ns.row.id, opts.name ?? 'personal access token', hashSecret(secret), now, expiresTime, null],
      );
      return {
        token: formatToken(id, secret),
        tokenId: id,
        namespace: ns.row.name,
        email: user.row.name,
        expiresTime,
        createdNamespace: ns.created,
        createdUser: user.created,
      };
    });
  }

  /**
   * IdentityService.addMember. Its TypeORM save of the membership inserts it, or updates an existing
   * one's created_time to now; the upsert does the same in one statement.
   */
  async addMember(namespace: string, email: string): Promise<void> {
    await this.transaction(async () => {
      const now = Date.now();
      const ns = await this.ensureNamespace(namespace, now);
      const user = await this.ensureUser(email.toLowerCase(), now);
      await this.db.query(
        `INSERT INTO memberships (user_id, namespace_id, created_time) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, namespace_id) DO UPDATE SET created_time = EXCLUDED.created_time`,
        [user.row.id, ns.row.id, now],
      );
    });
  }

  /** IdentityService.revokeToken: false when there is no such token; revoking twice keeps the first time. */
  async revokeToken(tokenId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(tokenId)) return false;
    const res = await this.db.query(`UPDATE access_tokens SET revoked_time = COALESCE(revoked_time, $2) WHERE id = $1 RETURNING id`, [
      tokenId,
      Date.now(),
    ]);
    const revoked = res.rows.length > 0;
    if (revoked) await this.db.query('SELECT pg_notify($1, $2)', [TOKEN_REVOKED_CHANNEL, tokenId]);
    return revoked;
  }

  /** IdentityService.listTokens. */
  async listTokens(filter: { namespace?: string; email?: string } = {}): Promise<TokenSummary[]> {
    const { rows } = await this.db.query<Record<string, string | null>>(
      `SELECT t.id, t.name, u.email, n.name AS namespace, t.created_time, t.expires_time, t.revoked_time
         FROM access_tokens t JOIN users u ON u.id = t.user_id JOIN namespaces n ON n.id = t.namespace_id
        WHERE ($1::text IS NULL OR n.name = $1) AND ($2::text IS NULL OR u.email = lower($2))
        ORDER BY t.created_time, t.id`,
      [filter.namespace ?? null, filter.email ?? null],
    );
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

  /** Whether IdentityService.authenticate would accept `Bearer <token>` with no X-Namespace. */
  async isValidToken(token: string): Promise<boolean> {
    const parsed = parseToken(token);
    if (!parsed) return false;
    const { rows } = await this.db.query<{ secret_hash: string; expires_time: string | null; revoked_time: string | null }>(
      `SELECT t.secret_hash, t.expires_time, t.revoked_time
         FROM access_tokens t JOIN users u ON u.id = t.user_id JOIN namespaces n ON n.id = t.namespace_id
        WHERE t.id = $1`,
      [parsed.tokenId],
    );
    const row = rows[0];
    if (!row || !secretMatches(parsed.secret, row.secret_hash)) return false;
    if (row.revoked_time !== null) return false;
    return !(row.expires_time !== null && Number(row.expires_time) <= Date.now());
  }

  private async ensureNamespace(name: string, now: number) {
    await this.db.query(`INSERT INTO namespaces (id, name, created_time) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [
      randomUUID(),
      name,
      now,
    ]);
    const row = await this.findOne(`SELECT id, name, created_time FROM namespaces WHERE name = $1 LIMIT 1`, 'NamespaceEntity', { name });
    return { row, created: row.createdTime === now };
  }

  private async ensureUser(email: string, now: number) {
    await this.db.query(`INSERT INTO users (id, email, created_time) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`, [
      randomUUID(),
      email,
      now,
    ]);
    const row = await this.findOne(`SELECT id, email AS name, created_time FROM users WHERE email = $1 LIMIT 1`, 'UserEntity', { email });
    return { row, created: row.createdTime === now };
  }

  /** The row findOneByOrFail reads, failing as it does (the row was just inserted unless deleted meanwhile). */
  private async findOne(sql: string, entity: string, where: Record<string, string>): Promise<Named> {
    const { rows } = await this.db.query<{ id: string; name: string; created_time: string }>(sql, Object.values(where));
    if (!rows[0]) throw new Error(`Could not find any entity of type "${entity}" matching: ${JSON.stringify(where, null, 4)}`);
    return { id: rows[0].id, name: rows[0].name, createdTime: Number(rows[0].created_time) };
  }

  private async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.db.query('START TRANSACTION');
    try {
      const result = await work();
      await this.db.query('COMMIT');
      return result;
    } catch (err) {
      await this.db.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
}

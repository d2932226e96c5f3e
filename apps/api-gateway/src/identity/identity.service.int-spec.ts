import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { DomainError, ErrorCode } from '@docintel/contracts';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { domainRejection, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { migrations } from '../migrations';
import { identityEntities } from './identity.entities';
import { createLogger } from '@docintel/observability';
import type { GatewayEnv } from '../gateway.env';
import { IdentityService, type IdentityCache } from './identity.service';
import { TokenCache } from './token-cache';
import { TokenRevocations } from './token-revocations';
import { formatToken, newTokenSecret, parseToken } from './token-format';

describe('IdentityService', () => {
  let infra: TestInfrastructure;
  let ds: DataSource;
  let identity: IdentityService;

  beforeAll(async () => {
    infra = await startTestInfrastructure('identity');
    const opts = { url: infra.databaseUrl, schema: 'identity', entities: identityEntities, migrations, poolSize: 2 };
    ds = await initializeDataSource(createDataSource(opts), opts);
    identity = new IdentityService(ds);
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  const count = async (sql: string, params: unknown[]) => Number((await ds.query(sql, params))[0].n);

  describe('createToken', () => {
    it('creates the namespace, the user and the membership once, and a new token each time', async () => {
      const first = await identity.createToken({ namespace: 'create-ns', email: 'Ada@Example.com' });
      expect(first).toMatchObject({
        namespace: 'create-ns',
        email: 'ada@example.com',
        createdNamespace: true,
        createdUser: true,
        expiresTime: null,
      });
      expect(parseToken(first.token)?.tokenId).toBe(first.tokenId);

      const second = await identity.createToken({ namespace: 'create-ns', email: 'ada@example.com', name: 'ci' });
      expect(second).toMatchObject({ createdNamespace: false, createdUser: false });
      expect(second.token).not.toBe(first.token);

      expect(await count(`SELECT count(*) AS n FROM namespaces WHERE name = $1`, ['create-ns'])).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM users WHERE email = $1`, ['ada@example.com'])).toBe(1);
      expect(
        await count(`SELECT count(*) AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1`, ['ada@example.com']),
      ).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM access_tokens WHERE id = ANY($1::uuid[])`, [[first.tokenId, second.tokenId]])).toBe(2);
    });

    it('stores only a hash of the secret', async () => {
      const created = await identity.createToken({ namespace: 'create-ns', email: 'hash@example.com' });
      const secret = parseToken(created.token)?.secret as string;
      const [row] = await ds.query(`SELECT secret_hash FROM access_tokens WHERE id = $1`, [created.tokenId]);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.secret_hash).not.toContain(secret);
    });

    it('sets an expiry when asked', async () => {
      const before = Date.now();
      const created = await identity.createToken({ namespace: 'create-ns', email: 'exp@example.com', expiresInDays: 2 });
      expect(created.expiresTime).toBeGreaterThanOrEqual(before + 2 * 86_400_000);
      expect(created.expiresTime).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000);
    });

    it.each([
      [{ namespace: '-bad', email: 'a@example.com' }, 'namespace'],
      [{ namespace: 'has space', email: 'a@example.com' }, 'namespace'],
      [{ namespace: 'ok', email: 'not-an-email' }, 'user'],
      [{ namespace: 'ok', email: 'a@example.com', expiresInDays: 0 }, 'expiresInDays'],
      [{ namespace: 'ok', email: 'a@example.com', expiresInDays: 1.5 }, 'expiresInDays'],
      [{ namespace: 'ok', email: 'a@example.com', expiresInDays: Number('soon') }, 'expiresInDays'],
      // 1e9 days is past the last date JavaScript can print: it once broke `token list` for everyone.
      [{ namespace: 'ok', email: 'a@example.com', expiresInDays: 1e9 }, 'expiresInDays'],
      [{ namespace: 'ok', email: 'a@example.com', expiresInDays: 3651 }, 'expiresInDays'],
    ])('rejects %p naming %s', async (opts, field) => {
      const err = await domainRejection(identity.createToken(opts));
      expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(err.details.map((d) => d.field)).toEqual([field]);
    });
  });

  describe('authenticate', () => {
    let token: string;
    let tokenId: string;

    beforeAll(async () => {
      ({ token, tokenId } = await identity.createToken({ namespace: 'auth-home', email: 'grace@example.com' }));
      await identity.createToken({ namespace: 'auth-second', email: 'grace@example.com' });
      await identity.createToken({ namespace: 'auth-foreign', email: 'other@example.com' });
    });

    it('accepts a valid bearer token and says who is asking', async () => {
      const [user] = await ds.query(`SELECT id FROM users WHERE email = 'grace@example.com'`);
      const [ns] = await ds.query(`SELECT id FROM namespaces WHERE name = 'auth-home'`);
      const principal = await identity.authenticate(`Bearer ${token}`, undefined);
      expect(principal).toEqual({ tokenId, userId: user.id, email: 'grace@example.com', namespaceId: ns.id, namespaceName: 'auth-home' });
      expect(await identity.authenticate(`bearer   ${token}  `, '')).toEqual(principal);
    });

    const unauthenticated = async (authorization: string | undefined) => {
      const err = await domainRejection(identity.authenticate(authorization, undefined));
      expect(err.code).toBe(ErrorCode.UNAUTHENTICATED);
      return err.message;
    };

    it('rejects missing, malformed, unknown, revoked and expired tokens, each with its own message', async () => {
      const missing = await unauthenticated(undefined);
      expect(await unauthenticated('')).toBe(missing);

      const malformedHeader = await unauthenticated(`Basic ${Buffer.from('a:b').toString('base64')}`);
      expect(await unauthenticated('Bearer')).toBe(malformedHeader);
      expect(await unauthenticated('Bearer ')).toBe(malformedHeader);
      expect(await unauthenticated(`Bearer ${token} extra`)).toBe(malformedHeader);

      const malformedToken = await unauthenticated('Bearer not-a-token');
      expect(await unauthenticated(`Bearer ${token}x`)).toBe(malformedToken);

      const unknown = await unauthenticated(`Bearer ${formatToken('3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f', newTokenSecret())}`);
      // A wrong secret for a real token id reads like an unknown token: it does not reveal that the id exists.
      expect(await unauthenticated(`Bearer ${formatToken(tokenId, newTokenSecret())}`)).toBe(unknown);

      const toRevoke = await identity.createToken({ namespace: 'auth-home', email: 'grace@example.com' });
      await identity.revokeToken(toRevoke.tokenId);
      const revoked = await unauthenticated(`Bearer ${toRevoke.token}`);
      expect(await unauthenticated(`Bearer ${formatToken(toRevoke.tokenId, newTokenSecret())}`)).toBe(unknown);

      const toExpire = await identity.createToken({ namespace: 'auth-home', email: 'grace@example.com', expiresInDays: 1 });
      await ds.query(`UPDATE access_tokens SET expires_time = $2 WHERE id = $1`, [toExpire.tokenId, Date.now() - 1000]);
      const expired = await unauthenticated(`Bearer ${toExpire.token}`);

      const messages = [missing, malformedHeader, malformedToken, unknown, revoked, expired];
      expect(new Set(messages).size).toBe(messages.length);
      expect(missing).toMatch(/Missing Authorization header/);
      expect(revoked).toMatch(/revoked/);
      expect(expired).toMatch(/expired/);
    });

    it('switches to another namespace of the user with X-Namespace', async () => {
      const [ns] = await ds.query(`SELECT id FROM namespaces WHERE name = 'auth-second'`);
      expect(await identity.authenticate(`Bearer ${token}`, 'auth-second')).toMatchObject({
        namespaceId: ns.id,
        namespaceName: 'auth-second',
        tokenId,
      });
      expect(await identity.authenticate(`Bearer ${token}`, ' auth-second ')).toMatchObject({ namespaceName: 'auth-second' });
      expect(await identity.authenticate(`Bearer ${token}`, 'auth-home')).toMatchObject({ namespaceName: 'auth-home' });
    });

    it.each(['auth-foreign', 'no-such-namespace'])('forbids X-Namespace %s, where the user is not a member', async (ns) => {
      const err = await domainRejection(identity.authenticate(`Bearer ${token}`, ns));
      expect(err.code).toBe(ErrorCode.FORBIDDEN);
      expect(err.message).toBe(`You are not a member of namespace ${ns}`);
    });

    it('lets a member added later switch to the namespace', async () => {
      await expect(identity.authenticate(`Bearer ${token}`, 'auth-later')).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      await identity.addMember('auth-later', 'GRACE@example.com');
      await identity.addMember('auth-later', 'grace@example.com');
      expect(await identity.authenticate(`Bearer ${token}`, 'auth-later')).toMatchObject({ namespaceName: 'auth-later' });
    });
  });

  describe('revokeToken', () => {
    it('revokes an existing token, keeping the first revocation time', async () => {
      const { tokenId } = await identity.createToken({ namespace: 'revoke-ns', email: 'rev@example.com' });
      expect(await identity.revokeToken(tokenId)).toBe(true);
      const [{ revoked_time: first }] = await ds.query(`SELECT revoked_time FROM access_tokens WHERE id = $1`, [tokenId]);
      expect(Number(first)).toBeGreaterThan(0);
      expect(await identity.revokeToken(tokenId.toUpperCase())).toBe(true);
      const [{ revoked_time: after }] = await ds.query(`SELECT revoked_time FROM access_tokens WHERE id = $1`, [tokenId]);
      expect(after).toBe(first);
    });

    it.each(['3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f', 'not-a-uuid', ''])('answers false for %p', async (id) => {
      expect(await identity.revokeToken(id)).toBe(false);
    });
  });

  describe('listTokens', () => {
    let ids: Record<string, string>;

    beforeAll(async () => {
      const a = await identity.createToken({ namespace: 'list-a', email: 'one@example.com', name: 'first' });
      const b = await identity.createToken({ namespace: 'list-a', email: 'two@example.com', name: 'second' });
      const c = await identity.createToken({ namespace: 'list-b', email: 'one@example.com', name: 'third', expiresInDays: 3 });
      await identity.revokeToken(b.tokenId);
      ids = { a: a.tokenId, b: b.tokenId, c: c.tokenId };
      // Tokens made within one millisecond would tie; spread their creation times to make the order known.
      const base = Date.now() - 60_000;
      for (const [i, id] of [ids.a, ids.b, ids.c].entries()) {
        await ds.query(`UPDATE access_tokens SET created_time = $2 WHERE id = $1`, [id, base + i * 1000]);
      }
    });

    const listed = async (filter: { namespace?: string; email?: string }) =>
      (await identity.listTokens(filter)).filter((t) => Object.values(ids).includes(t.id)).map((t) => t.id);

    it('lists every token without a filter, oldest first', async () => {
      expect(await listed({})).toEqual([ids.a, ids.b, ids.c]);
    });

    it('filters by namespace, by user (any case) and by both', async () => {
      expect(await identity.listTokens({ namespace: 'list-a' }).then((ts) => ts.map((t) => t.id))).toEqual([ids.a, ids.b]);
      expect(await identity.listTokens({ email: 'ONE@example.com' }).then((ts) => ts.map((t) => t.id))).toEqual([ids.a, ids.c]);
      expect(await identity.listTokens({ namespace: 'list-b', email: 'one@example.com' }).then((ts) => ts.map((t) => t.id))).toEqual([
        ids.c,
      ]);
      expect(await identity.listTokens({ namespace: 'list-b', email: 'two@example.com' })).toEqual([]);
      expect(await identity.listTokens({ namespace: 'no-such-namespace' })).toEqual([]);
    });

    it('shows names, owners, and expiry and revocation times', async () => {
      const all = await identity.listTokens({ namespace: 'list-a' });
      expect(all).toEqual([
        {
          id: ids.a,
          name: 'first',
          email: 'one@example.com',
          namespace: 'list-a',
          createdTime: expect.any(Number),
          expiresTime: null,
          revokedTime: null,
        },
        {
          id: ids.b,
          name: 'second',
          email: 'two@example.com',
          namespace: 'list-a',
          createdTime: expect.any(Number),
          expiresTime: null,
          revokedTime: expect.any(Number),
        },
      ]);
      const [c] = await identity.listTokens({ namespace: 'list-b' });
      expect(c.expiresTime).toBeGreaterThan(c.createdTime);
    });
  });

  describe('with verified tokens cached', () => {
    it('reads a token once for many requests, and a revocation by another process evicts it at once (LISTEN/NOTIFY)', async () => {
      // A cache that would trust a token for a minute: only the notification can make the revocation count.
      const cache: IdentityCache = new TokenCache(60_000);
      const gateway = new IdentityService(ds, cache);
      const env = { AUTH_CACHE_MS: 1000, DATABASE_URL: infra.databaseUrl } as GatewayEnv;
      const revocations = new TokenRevocations(cache, env, createLogger('identity-test', 'silent'));
      await revocations.onApplicationBootstrap();
      try {
        const created = await identity.createToken({ namespace: 'cache-ns', email: 'cached@example.com' });
        const principal = await gateway.authenticate(`Bearer ${created.token}`, undefined);
        const reads = jest.spyOn(ds, 'query');
        await Promise.all(Array.from({ length: 20 }, () => gateway.authenticate(`Bearer ${created.token}`, undefined)));
        expect(reads).not.toHaveBeenCalled();
        reads.mockRestore();
        // A wrong secret for a cached token id is still refused.
        expect(
          (await domainRejection(gateway.authenticate(`Bearer ${formatToken(created.tokenId, newTokenSecret())}`, undefined))).code,
        ).toBe(ErrorCode.UNAUTHENTICATED);

        // Revoked through a process without the cache (the CLI), the token is refused by the gateway.
        expect(await identity.revokeToken(created.tokenId)).toBe(true);
        let refused: DomainError | null = null;
        for (let i = 0; i < 100 && !refused; i++) {
          refused = await gateway.authenticate(`Bearer ${created.token}`, undefined).then(
            () => null,
            (err: DomainError) => err,
          );
          if (!refused) await new Promise((r) => setTimeout(r, 20));
        }
        expect(refused?.message).toBe('This access token has been revoked');
        expect(principal.email).toBe('cached@example.com');
      } finally {
        await revocations.onApplicationShutdown();
      }
    });
  });
});

import 'reflect-metadata';
import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { DomainError } from '@docintel/contracts';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { identityEntities } from '../identity/identity.entities';
import { IdentityService } from '../identity/identity.service';
import { migrations } from '../migrations';
import { connectIdentity } from './database';
import { CliIdentity, InvalidRequestError } from './identity-store';

/** The CLI's SQL over pg and IdentityService over TypeORM, on one database: each reads what the other writes, and refuses alike. */
describe('CliIdentity beside IdentityService', () => {
  let infra: TestInfrastructure;
  let db: Client;
  let ds: DataSource;
  let cli: CliIdentity;
  let service: IdentityService;

  beforeAll(async () => {
    infra = await startTestInfrastructure('cli-identity');
    // The CLI comes first: on a new database it runs the migrations itself.
    db = await connectIdentity(infra.databaseUrl);
    cli = new CliIdentity(db);
    const opts = { url: infra.databaseUrl, schema: 'identity', entities: identityEntities, migrations, poolSize: 2 };
    ds = await initializeDataSource(createDataSource(opts), opts);
    service = new IdentityService(ds);
  });
  afterAll(async () => {
    await db?.end();
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  it('creates a token the service accepts, with the namespace and the lower-cased user', async () => {
    const created = await cli.createToken({ namespace: 'cli-a', email: 'Ann@Example.com', name: 'laptop', expiresInDays: 30 });
    expect(created).toMatchObject({ namespace: 'cli-a', email: 'ann@example.com', createdNamespace: true, createdUser: true });
    const principal = await service.authenticate(`Bearer ${created.token}`, undefined);
    expect(principal).toMatchObject({ tokenId: created.tokenId, email: 'ann@example.com', namespaceName: 'cli-a' });
    const again = await cli.createToken({ namespace: 'cli-a', email: 'ann@example.com' });
    expect(again).toMatchObject({ createdNamespace: false, createdUser: false, expiresTime: null });
  });

  it('lists what the service lists', async () => {
    await service.createToken({ namespace: 'cli-b', email: 'bob@example.com' });
    for (const filter of [{}, { namespace: 'cli-a' }, { email: 'BOB@example.com' }, { namespace: 'cli-b', email: 'ann@example.com' }])
      expect(await cli.listTokens(filter)).toEqual(await service.listTokens(filter));
  });

  it('revokes as the service does, and knows a valid token from a revoked, unknown or malformed one', async () => {
    const { token, tokenId } = await service.createToken({ namespace: 'cli-c', email: 'carol@example.com' });
    expect(await cli.isValidToken(token)).toBe(true);
    expect(await cli.revokeToken(tokenId)).toBe(true);
    const [revoked] = await service.listTokens({ namespace: 'cli-c' });
    expect(await cli.revokeToken(tokenId)).toBe(true);
    expect((await service.listTokens({ namespace: 'cli-c' }))[0].revokedTime).toBe(revoked.revokedTime);
    expect(await cli.isValidToken(token)).toBe(false);
    expect(await cli.revokeToken('00000000-0000-0000-0000-000000000000')).toBe(false);
    expect(await cli.revokeToken('not-an-id')).toBe(false);
    expect(await cli.isValidToken('dit_nope')).toBe(false);
  });

  it('adds a member the service then lets into the namespace', async () => {
    const { token } = await service.createToken({ namespace: 'cli-d', email: 'dan@example.com' });
    await cli.addMember('cli-e', 'Dan@example.com');
    await cli.addMember('cli-e', 'dan@example.com');
    expect(await service.authenticate(`Bearer ${token}`, 'cli-e')).toMatchObject({ namespaceName: 'cli-e' });
  });

  it.each([
    { namespace: 'bad name', email: 'a@example.com' },
    { namespace: 'ok', email: 'not-an-email' },
    { namespace: 'ok', email: 'a@example.com', expiresInDays: 0 },
    { namespace: 'ok', email: 'a@example.com', expiresInDays: 3651 },
  ])('refuses %p with the details of the service', async (request) => {
    const [ours, theirs] = await Promise.all([
      cli.createToken(request).catch((e: unknown) => e),
      service.createToken(request).catch((e: unknown) => e),
    ]);
    expect(ours).toBeInstanceOf(InvalidRequestError);
    expect(theirs).toBeInstanceOf(DomainError);
    const { message, details } = theirs as DomainError;
    expect({ message: (ours as InvalidRequestError).message, details: (ours as InvalidRequestError).details }).toEqual({
      message,
      details,
    });
  });
});

import 'reflect-metadata';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import type { Logger } from '@docintel/observability';
import { migrations } from '../migrations';
import { ProviderEntity } from '../providers/provider.entity';
import type { StorageEnv } from '../storage.env';
import { ItemSigning } from './item-signing';
import { deriveKey } from './signed-token';
import { loadOrCreateSigningSecret } from './signing-secret';
import { TransferGrantSigner, type TransferGrant } from './transfer-grant';

const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;

describe('the signing secret without STORAGE_SIGNING_SECRET', () => {
  let infra: TestInfrastructure;
  const sources: DataSource[] = [];

  /** A replica: its own connection pool on the same database, migrated as on start. */
  const replica = async (): Promise<DataSource> => {
    const opts = { url: infra.databaseUrl, schema: 'storage', entities: [ProviderEntity], migrations, poolSize: 2 };
    const ds = await initializeDataSource(createDataSource(opts), opts);
    sources.push(ds);
    return ds;
  };

  beforeAll(async () => {
    infra = await startTestInfrastructure('signingsecret');
  });
  afterAll(async () => {
    for (const ds of sources) if (ds.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  const grant: TransferGrant = {
    providerId: '2b1f0a52-5c4e-4a7e-9d36-0c3a9f6a1e10',
    namespace: 'acme',
    key: 'a.txt',
    op: 'get',
    purpose: 'presigned',
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  };

  it('is generated once, at random, and every replica starting at the same time gets the same one', async () => {
    const replicas = await Promise.all([replica(), replica(), replica(), replica()]);
    const results = await Promise.all(replicas.flatMap((ds) => [loadOrCreateSigningSecret(ds), loadOrCreateSigningSecret(ds)]));
    const secrets = new Set(results.map((r) => r.secret));
    expect(secrets.size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const [secret] = [...secrets];
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await replicas[0].query(`SELECT count(*)::int AS n FROM secrets`)).toEqual([{ n: 1 }]);

    // A URL one replica signs, another accepts.
    const [a, b] = await Promise.all(replicas.slice(0, 2).map((ds) => ItemSigning.create({} as StorageEnv, quiet, ds)));
    expect(b.grants.verify(a.grants.sign(grant))).toEqual(grant);
  });

  it('is not derived from the database URL, so a key recomputed from it signs nothing valid', async () => {
    const signing = await ItemSigning.create({ DATABASE_URL: infra.databaseUrl } as StorageEnv, quiet, await replica());
    // The old development key: a hash of the (documented, default) DATABASE_URL.
    for (const url of [infra.databaseUrl, 'postgres://postgres@127.0.0.1:5432/docintel']) {
      const guessed = createHash('sha256').update(`docintel:dev-signing-secret:${url}`).digest('hex');
      const forger = new TransferGrantSigner(deriveKey(guessed, 'transfer-grant'));
      expect(signing.grants.verify(forger.sign(grant))).toBe('invalid');
    }
  });

  it('gives way to STORAGE_SIGNING_SECRET when it is set', async () => {
    const configured = 'an-operator-secret-of-at-least-32-characters';
    const signing = await ItemSigning.create({ STORAGE_SIGNING_SECRET: configured } as StorageEnv, quiet, await replica());
    const operator = new TransferGrantSigner(deriveKey(configured, 'transfer-grant'));
    expect(signing.grants.verify(operator.sign(grant))).toEqual(grant);
  });
});

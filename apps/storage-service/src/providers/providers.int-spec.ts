import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { DomainError, ErrorCode, ListProvidersQueryDto, validatePayload, type ProviderDto, type RpcContext } from '@docintel/contracts';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { migrations } from '../migrations';
import { stableProviderId, type ResolvedProvider } from './provider-config';
import { ProviderEntity } from './provider.entity';
import { ProvidersRepository } from './providers.repository';
import { ProvidersService } from './providers.service';

const local = (name: string, namespaces: string[] | null = null): ResolvedProvider => ({
  id: stableProviderId(name),
  name,
  type: 'LOCAL',
  icon: null,
  namespaces,
  settings: { root: `/srv/storage/${name}`, name },
});

const s3 = (name: string, namespaces: string[] | null = null): ResolvedProvider => ({
  id: stableProviderId(name),
  name,
  type: 'S3',
  icon: 'cloud',
  namespaces,
  settings: { bucketName: `bucket-${name.length}`, region: 'eu-west-3', accessKey: 'AKIA-SECRET', secretKey: 'SECRET-KEY' },
});

const caller = (namespaceName: string): RpcContext => ({ requestId: 'req', namespaceName, namespaceId: 'ns', userId: 'u' });

describe('providers against PostgreSQL', () => {
  let infra: TestInfrastructure;
  let ds: DataSource;
  let repository: ProvidersRepository;
  let service: ProvidersService;

  beforeAll(async () => {
    infra = await startTestInfrastructure('providers');
    const opts = { url: infra.databaseUrl, schema: 'storage', entities: [ProviderEntity], migrations, poolSize: 2 };
    ds = await initializeDataSource(createDataSource(opts), opts);
    repository = new ProvidersRepository(ds);
    service = new ProvidersService(repository);
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  const list = async (namespace: string, query: Record<string, unknown> = {}) =>
    service.list(caller(namespace), await validatePayload(ListProvidersQueryDto, query));
  const names = (page: { data: ProviderDto[] }) => page.data.map((p) => p.name);
  const rows = () => ds.getRepository(ProviderEntity).find({ order: { name: 'ASC' } });

  describe('catalogue replacement', () => {
    it('keeps ids, policies and creation times of kept providers, updates them, and removes dropped ones', async () => {
      await repository.replaceCatalog([local('Kept'), local('Dropped'), s3('Cloud')]);
      await ds.query(`UPDATE providers SET created_time = 1000 WHERE id = $1`, [stableProviderId('Kept')]);
      const before = new Map((await rows()).map((r) => [r.id, r]));

      const renamed = { ...local('Kept'), name: 'Kept (renamed)', icon: 'star', namespaces: ['acme'] };
      await repository.replaceCatalog([renamed, s3('Cloud'), local('Added')]);
      const after = await rows();
      expect(after.map((r) => r.name)).toEqual(['Added', 'Cloud', 'Kept (renamed)']);

      const kept = after.find((r) => r.id === stableProviderId('Kept')) as ProviderEntity;
      expect(kept).toMatchObject({ name: 'Kept (renamed)', icon: 'star', namespaces: ['acme'], createdTime: 1000, system: true });
      expect(kept.policyId).toBe(before.get(kept.id)?.policyId);
      const cloud = after.find((r) => r.name === 'Cloud') as ProviderEntity;
      expect(cloud).toMatchObject({ createdTime: before.get(cloud.id)?.createdTime, policyId: before.get(cloud.id)?.policyId });
      expect(after.find((r) => r.name === 'Added')?.createdTime).toBeGreaterThan(1000);
      expect(after.some((r) => r.id === stableProviderId('Dropped'))).toBe(false);
    });

    it('lets replicas seed the same catalogue at once', async () => {
      const catalog = [local('One'), local('Two')];
      await Promise.all([repository.replaceCatalog(catalog), repository.replaceCatalog(catalog), repository.replaceCatalog(catalog)]);
      expect((await rows()).map((r) => r.name)).toEqual(['One', 'Two']);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      await repository.replaceCatalog([
        local('alpha'),
        local('Bravo'),
        s3('charlie'),
        local('Delta', ['acme']),
        s3('echo', ['acme', 'beta']),
        local('foxtrot', ['beta']),
      ]);
    });

    it('shows a namespace the providers shared with everyone and those limited to it', async () => {
      expect(names(await list('acme'))).toEqual(['alpha', 'Bravo', 'charlie', 'Delta', 'echo']);
      expect(names(await list('beta'))).toEqual(['alpha', 'Bravo', 'charlie', 'echo', 'foxtrot']);
      expect(names(await list('other'))).toEqual(['alpha', 'Bravo', 'charlie']);
    });

    it('never shows settings beyond the public config', async () => {
      const page = await list('acme');
      const text = JSON.stringify(page);
      for (const secret of ['/srv/storage', 'AKIA-SECRET', 'SECRET-KEY', 'accessKey', 'secretKey', 'root'])
        expect(text).not.toContain(secret);
      expect(page.data.find((p) => p.name === 'echo')).toMatchObject({
        id: { id: stableProviderId('echo'), entityType: 'PROVIDER' },
        owner: { id: 'system' },
        policy: { entityType: 'POLICY' },
        icon: 'cloud',
        type: 'S3',
        system: true,
        config: { type: 'S3', bucketName: 'bucket-4', region: 'eu-west-3' },
      });
      expect(page.data.find((p) => p.name === 'alpha')).toMatchObject({ icon: '', config: { type: 'LOCAL', name: 'alpha' } });
    });

    it('sorts by name (ignoring case), type and creation time, both ways, ties broken by id', async () => {
      // Distinct creation times for some, ties for others.
      const times: Record<string, number> = { alpha: 3000, Bravo: 1000, charlie: 2000, Delta: 2000, echo: 1000 };
      for (const [name, t] of Object.entries(times)) await ds.query(`UPDATE providers SET created_time = $2 WHERE name = $1`, [name, t]);

      const all = (await list('acme', { pageSize: 100 })).data;
      const expected = (key: (p: ProviderDto) => string | number, order: 'asc' | 'desc') =>
        [...all]
          .sort((a, b) => {
            const [x, y] = [key(a), key(b)];
            const c = x < y ? -1 : x > y ? 1 : a.id.id < b.id.id ? -1 : a.id.id > b.id.id ? 1 : 0;
            return order === 'asc' ? c : -c;
          })
          .map((p) => p.name);

      expect(names(await list('acme', { sortBy: 'name' }))).toEqual(['alpha', 'Bravo', 'charlie', 'Delta', 'echo']);
      expect(names(await list('acme', { sortBy: 'name', sortOrder: 'desc' }))).toEqual(['echo', 'Delta', 'charlie', 'Bravo', 'alpha']);
      for (const order of ['asc', 'desc'] as const) {
        expect(names(await list('acme', { sortBy: 'type', sortOrder: order }))).toEqual(expected((p) => p.type, order));
        expect(names(await list('acme', { sortBy: 'createdTime', sortOrder: order }))).toEqual(expected((p) => p.createdTime, order));
      }
      expect(names(await list('acme', { sortBy: 'createdTime' })).slice(-1)).toEqual(['alpha']);
      // Without sortBy, the list is sorted by name.
      expect(names(await list('acme'))).toEqual(['alpha', 'Bravo', 'charlie', 'Delta', 'echo']);
    });

    it('pages through the list without gaps or repeats', async () => {
      const whole = names(await list('beta', { sortBy: 'type', pageSize: 100 }));
      const pages = [];
      for (let page = 0; page < 3; page++) pages.push(await list('beta', { sortBy: 'type', page, pageSize: 2 }));
      expect(
        pages.map((p) => ({ n: p.data.length, totalPages: p.totalPages, totalElements: p.totalElements, hasNext: p.hasNext })),
      ).toEqual([
        { n: 2, totalPages: 3, totalElements: 5, hasNext: true },
        { n: 2, totalPages: 3, totalElements: 5, hasNext: true },
        { n: 1, totalPages: 3, totalElements: 5, hasNext: false },
      ]);
      expect(pages.flatMap(names)).toEqual(whole);
      expect(await list('beta', { page: 9, pageSize: 2 })).toEqual({ data: [], totalPages: 3, totalElements: 5, hasNext: false });
    });

    it('filters by name, ignoring case and taking % and _ literally', async () => {
      await repository.replaceCatalog([
        local('100% scans'),
        local('1000 scans'),
        local('snake_case'),
        local('snakeXcase'),
        local('back\\slash'),
        local('Team Reports'),
      ]);
      expect(names(await list('any', { q: '%' }))).toEqual(['100% scans']);
      expect(names(await list('any', { q: '0%' }))).toEqual(['100% scans']);
      expect(names(await list('any', { q: '_' }))).toEqual(['snake_case']);
      expect(names(await list('any', { q: 'e_c' }))).toEqual(['snake_case']);
      expect(names(await list('any', { q: '\\' }))).toEqual(['back\\slash']);
      expect(names(await list('any', { q: 'SNAKE' }))).toEqual(['snake_case', 'snakeXcase']);
      expect(names(await list('any', { q: 'reports' }))).toEqual(['Team Reports']);
      expect(await list('any', { q: 'nothing like it' })).toEqual({ data: [], totalPages: 0, totalElements: 0, hasNext: false });
      const paged = await list('any', { q: 'scans', pageSize: 1 });
      expect(paged).toMatchObject({ totalElements: 2, totalPages: 2, hasNext: true });
    });
  });

  describe('get', () => {
    beforeAll(async () => {
      await repository.replaceCatalog([local('Shared'), local('Acme only', ['acme'])]);
    });

    const failure = async (namespace: string, id: string) => {
      try {
        await service.get(caller(namespace), id);
      } catch (err) {
        expect(err).toBeInstanceOf(DomainError);
        return err as DomainError;
      }
      throw new Error('expected get to fail');
    };

    it('returns a provider the namespace may use', async () => {
      const id = stableProviderId('Acme only');
      expect(await service.get(caller('acme'), id)).toMatchObject({
        id: { id, entityType: 'PROVIDER' },
        name: 'Acme only',
        config: { type: 'LOCAL', name: 'Acme only' },
      });
      expect(await service.get(caller('other'), stableProviderId('Shared'))).toMatchObject({ name: 'Shared' });
      expect(await service.get(caller('acme'), id.toUpperCase())).toMatchObject({ name: 'Acme only' });
    });

    it.each(['3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f', 'not-a-uuid'])('answers NOT_FOUND for %s', async (id) => {
      const err = await failure('acme', id);
      expect(err.code).toBe(ErrorCode.NOT_FOUND);
      expect(err.message).toBe(`Provider ${id} was not found`);
    });

    it('answers FORBIDDEN for a provider of another namespace', async () => {
      const id = stableProviderId('Acme only');
      const err = await failure('other', id);
      expect(err.code).toBe(ErrorCode.FORBIDDEN);
      expect(err.message).toBe(`Provider ${id} is not available to namespace other`);
    });

    it('refuses a request that carries no namespace', async () => {
      await expect(service.get({ requestId: 'r' }, stableProviderId('Shared'))).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
      await expect(service.list({ requestId: 'r' }, await validatePayload(ListProvidersQueryDto, {}))).rejects.toMatchObject({
        code: ErrorCode.UNAUTHENTICATED,
      });
    });
  });

  describe('access: each namespace in its own part of a provider', () => {
    const perNamespace: ResolvedProvider = {
      ...local('Per namespace'),
      namespaceRoots: { template: '{namespace}', byNamespace: { beta: '/mnt/beta' } },
    };
    const bucket: ResolvedProvider = {
      ...s3('Tenants', ['acme', 'beta']),
      settings: { ...s3('Tenants').settings, prefix: 'docintel/' },
      namespaceRoots: { template: 'ns/{namespace}/', byNamespace: {} },
    };
    beforeAll(async () => {
      await repository.replaceCatalog([perNamespace, bucket, local('Shared')]);
    });

    it('keeps the namespace roots with the provider, and resolves the caller namespace place from them', async () => {
      expect((await ds.getRepository(ProviderEntity).findOneByOrFail({ id: perNamespace.id })).namespaceRoots).toEqual(
        perNamespace.namespaceRoots,
      );
      expect((await service.access(caller('acme'), perNamespace.id)).driverSettings).toMatchObject({
        root: '/srv/storage/Per namespace/acme',
      });
      expect((await service.access(caller('beta'), perNamespace.id)).driverSettings).toMatchObject({ root: '/mnt/beta' });
      expect((await service.access(caller('acme'), bucket.id)).driverSettings).toMatchObject({ prefix: 'docintel/ns/acme/' });
      expect(await service.access(caller('beta'), bucket.id)).toMatchObject({
        namespace: 'beta',
        driverSettings: { prefix: 'docintel/ns/beta/' },
      });
      // A provider without namespace roots is shared whole, as before.
      expect((await service.access(caller('acme'), stableProviderId('Shared'))).driverSettings).toEqual({
        root: '/srv/storage/Shared',
        name: 'Shared',
      });
    });

    it('refuses a namespace the provider is not shared with (403), and lists only what the caller may use', async () => {
      await expect(service.access(caller('gamma'), bucket.id)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
      expect(names(await list('gamma'))).toEqual(['Per namespace', 'Shared']);
      expect(names(await list('acme'))).toEqual(['Per namespace', 'Shared', 'Tenants']);
    });
  });
});

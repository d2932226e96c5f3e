import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DocintelClient, operations, Provider, ProviderPage } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { clientFor, statusOf } from './support/client';
import { errorBody } from './support/http';
import { compareWithReference, type OpenApiDocument } from './support/openapi-compat';

type ProvidersQuery = NonNullable<operations['listProviders']['parameters']['query']>;

const SECRETS = { accessKey: 'AKIAE2EEXAMPLEKEY', secretKey: 'e2e-very-secret-key-value', endpoint: 'minio.e2e.internal' };
const ZULUS = Array.from({ length: 18 }, (_, i) => `Zulu ${String(i + 1).padStart(2, '0')}`);

/** Runs the CLI's `token create` and reads the token (last line) and its id ("Token id:" line). */
async function createToken(stack: TestStack, namespace: string, email: string, ...extra: string[]) {
  const out = await stack.cli('token', 'create', '--namespace', namespace, '--user', email, ...extra);
  const lines = out.trim().split('\n');
  const id = /^Token id: (\S+)$/m.exec(out)?.[1];
  if (!id) throw new Error(`no "Token id:" line in:\n${out}`);
  return { token: lines[lines.length - 1], id, out };
}

/** How a CLI run failed: exit code and standard error. */
async function cliFailure(stack: TestStack, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await stack.cli(...args);
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
  throw new Error(`expected docintel ${args.join(' ')} to fail`);
}

describe('gateway API', () => {
  let stack: TestStack;
  let dir: string;
  let token: string;
  let acmeToken: string;
  /** Every response body seen in this file, to check that no secret ever leaves the service. */
  const bodies: string[] = [];

  /** A typed client acting as the token's user (in `namespace`), which keeps every response body in `bodies`. */
  const as = (init: { token?: string; namespace?: string } = { token }): DocintelClient => {
    const api = clientFor(stack, init.token, { namespace: init.namespace });
    api.use({
      async onResponse({ response }) {
        bodies.push(await response.clone().text());
      },
    });
    return api;
  };
  const page = async (query: ProvidersQuery = {}, init: { token?: string; namespace?: string } = { token }) => {
    const { data, error, response } = await as(init).GET('/api/core/providers', { params: { query } });
    expect({ status: response.status, body: error }).toMatchObject({ status: 200 });
    return data as ProviderPage;
  };
  const names = (p: ProviderPage) => p.data.map((x) => x.name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docintel-e2e-'));
    const local = (name: string, root: string, extra = '') => {
      mkdirSync(join(dir, root), { recursive: true });
      return `  - name: ${JSON.stringify(name)}\n    type: LOCAL\n    root: ./${root}\n${extra}`;
    };
    const file = join(dir, 'providers.yaml');
    writeFileSync(
      file,
      [
        'providers:',
        local('Alpha reports', 'alpha', '    icon: folder\n'),
        local('bravo archive', 'bravo'),
        local('Charlie_scans', 'charlie'),
        local('Delta acme', 'delta', '    namespaces: [acme]\n'),
        local('Foxtrot 100%', 'foxtrot'),
        '  - name: Echo bucket',
        '    type: S3',
        '    bucketName: echo-bucket',
        '    region: eu-west-3',
        `    endpoint: http://${SECRETS.endpoint}:9000`,
        `    accessKey: ${SECRETS.accessKey}`,
        `    secretKey: ${SECRETS.secretKey}`,
        ...ZULUS.map((n, i) => local(n, `zulu${i}`)),
      ].join('\n'),
    );
    stack = await TestStack.start({ label: 'api', env: { PROVIDERS_FILE: file } });
    ({ token } = await createToken(stack, 'default', 'e2e-user@example.com'));
    ({ token: acmeToken } = await createToken(stack, 'acme', 'acme-admin@example.com'));
  });

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a Basic header', 'Basic dXNlcjpwYXNz'],
      ['Bearer without a token', 'Bearer '],
      ['a malformed token', 'Bearer not-a-docintel-token'],
      ['an unknown token', `Bearer dit_${'0'.repeat(32)}_${'A'.repeat(43)}`],
    ])('answers 401 with the error body for %s', async (_, authorization) => {
      const res = await stack.request('/api/core/providers', { headers: authorization ? { authorization } : {} });
      const body = await errorBody(res, 401, 'UNAUTHENTICATED');
      expect(body).toMatchObject({ error: 'Unauthorized', details: [] });
    });

    it('answers 401 for a revoked token and for an expired one, each saying why', async () => {
      const revoked = await createToken(stack, 'default', 'e2e-user@example.com', '--name', 'to revoke');
      expect(await statusOf(as({ token: revoked.token }).GET('/api/core/providers'))).toBe(200);
      expect(await stack.cli('token', 'revoke', revoked.id)).toContain(`Revoked token ${revoked.id}`);
      const revokedBody = await errorBody(await stack.request('/api/core/providers', { token: revoked.token }), 401, 'UNAUTHENTICATED');

      const expiring = await createToken(stack, 'default', 'e2e-user@example.com', '--expires-in-days', '1');
      expect(await statusOf(as({ token: expiring.token }).GET('/api/core/providers'))).toBe(200);
      const db = new Client({ connectionString: stack.infra.databaseUrl });
      await db.connect();
      try {
        await db.query('UPDATE identity.access_tokens SET expires_time = $2 WHERE id = $1', [expiring.id, Date.now() - 60_000]);
      } finally {
        await db.end();
      }
      // The gateway trusts a verified token for AUTH_CACHE_MS (1 s): an expiry written behind its back counts after that.
      let expired = await stack.request('/api/core/providers', { token: expiring.token });
      for (let i = 0; i < 40 && expired.status === 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        expired = await stack.request('/api/core/providers', { token: expiring.token });
      }
      const expiredBody = await errorBody(expired, 401, 'UNAUTHENTICATED');

      const messageFor = async (headers: Record<string, string>) =>
        ((await (await stack.request('/api/core/providers', { headers })).json()) as { message: string }).message;
      const messages = [
        await messageFor({}),
        await messageFor({ authorization: 'Basic dXNlcjpwYXNz' }),
        await messageFor({ authorization: 'Bearer not-a-docintel-token' }),
        await messageFor({ authorization: `Bearer dit_${'0'.repeat(32)}_${'A'.repeat(43)}` }),
        revokedBody.message,
        expiredBody.message,
      ];
      expect(new Set(messages).size).toBe(messages.length);
      expect(revokedBody.message).toMatch(/revoked/);
      expect(expiredBody.message).toMatch(/expired/);
    });

    it('answers 403 for X-Namespace of a namespace the user is not a member of', async () => {
      await createToken(stack, 'partners', 'partner@example.com');
      for (const namespace of ['partners', 'nobody-has-this-one']) {
        const body = await errorBody(await stack.request('/api/core/providers', { token, namespace }), 403, 'FORBIDDEN');
        expect(body).toMatchObject({ error: 'Forbidden', message: `You are not a member of namespace ${namespace}` });
      }
    });

    it('acts in another namespace of the user with X-Namespace', async () => {
      expect(names(await page())).not.toContain('Delta acme');
      await createToken(stack, 'acme', 'e2e-user@example.com');
      expect(names(await page({}, { token, namespace: 'acme' }))).toContain('Delta acme');
      expect(names(await page({}, { token, namespace: 'default' }))).not.toContain('Delta acme');
    });
  });

  describe('token CLI', () => {
    it('creates a token, printed as the last line, and lists it', async () => {
      const first = await createToken(stack, 'cli-ns', 'cli@example.com', '--name', 'laptop');
      expect(first.out).toContain('Created namespace cli-ns');
      expect(first.out).toContain('Created user cli@example.com');
      expect(first.token).toMatch(/^dit_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
      expect(first.token.slice(4, 36)).toBe(first.id.replace(/-/g, ''));
      expect(await statusOf(as({ token: first.token }).GET('/api/core/providers'))).toBe(200);

      const second = await createToken(stack, 'cli-ns', 'cli@example.com');
      expect(second.out).not.toContain('Created');

      const listing = await stack.cli('token', 'list', '--namespace', 'cli-ns');
      const rows = listing.trim().split('\n');
      expect(rows[0].split('\t')).toEqual(['id', 'namespace', 'user', 'name', 'created', 'expires', 'revoked']);
      expect(rows.slice(1).map((r) => r.split('\t').slice(0, 4))).toEqual([
        [first.id, 'cli-ns', 'cli@example.com', 'laptop'],
        [second.id, 'cli-ns', 'cli@example.com', 'personal access token'],
      ]);
      expect(listing).not.toContain(first.token);
    });

    it('fails when revoking a token that does not exist', async () => {
      const missing = await cliFailure(stack, 'token', 'revoke', '3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f');
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('No token with id 3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f');
      expect((await cliFailure(stack, 'token', 'revoke', 'not-an-id')).code).not.toBe(0);
    });

    it('explains its usage when a command is wrong', async () => {
      const failure = await cliFailure(stack, 'token', 'create', '--namespace', 'x');
      expect(failure.code).toBe(2);
      expect(failure.stderr).toContain('token create needs --namespace and --user');
    });
  });

  describe('providers', () => {
    const visibleToDefault = 5 + ZULUS.length;

    it('answers the page envelope, 20 per page by default', async () => {
      const first = await page();
      expect(Object.keys(first).sort()).toEqual(['data', 'hasNext', 'totalElements', 'totalPages']);
      expect(first).toMatchObject({ totalElements: visibleToDefault, totalPages: 2, hasNext: true });
      expect(first.data).toHaveLength(20);
      const second = await page({ page: 1 });
      expect(second).toMatchObject({ totalElements: visibleToDefault, totalPages: 2, hasNext: false });
      expect(second.data).toHaveLength(visibleToDefault - 20);
      expect([...names(first), ...names(second)]).toHaveLength(new Set([...names(first), ...names(second)]).size);
      expect(await page({ page: 5 })).toEqual({ data: [], totalElements: visibleToDefault, totalPages: 2, hasNext: false });
    });

    it('pages with pageSize without gaps or repeats', async () => {
      const whole = names(await page({ pageSize: 100 }));
      expect(whole).toHaveLength(visibleToDefault);
      const pages: ProviderPage[] = [];
      for (let p = 0; p < 5; p++) pages.push(await page({ page: p, pageSize: 5 }));
      expect(pages.map((p) => [p.data.length, p.totalPages, p.hasNext])).toEqual([
        [5, 5, true],
        [5, 5, true],
        [5, 5, true],
        [5, 5, true],
        [3, 5, false],
      ]);
      expect(pages.flatMap(names)).toEqual(whole);
    });

    it('shows each provider with its public fields', async () => {
      const all = (await page({ pageSize: 100 })).data;
      const s3 = all.find((p) => p.name === 'Echo bucket') as Provider;
      expect(s3).toEqual({
        id: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), entityType: 'PROVIDER' },
        createdTime: expect.any(Number),
        owner: { id: expect.any(String) },
        policy: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), entityType: 'POLICY' },
        name: 'Echo bucket',
        icon: '',
        config: { type: 'S3', bucketName: 'echo-bucket', region: 'eu-west-3' },
        type: 'S3',
        system: true,
      });
      expect(all.find((p) => p.name === 'Alpha reports')).toMatchObject({
        icon: 'folder',
        type: 'LOCAL',
        config: { type: 'LOCAL', name: 'alpha' },
      });
      expect(Math.abs(s3.createdTime - Date.now())).toBeLessThan(24 * 3600 * 1000);
    });

    const sortedBy = (items: Provider[], key: (p: Provider) => string | number, order: 'asc' | 'desc') =>
      [...items]
        .sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const c = x < y ? -1 : x > y ? 1 : a.id.id < b.id.id ? -1 : a.id.id > b.id.id ? 1 : 0;
          return order === 'asc' ? c : -c;
        })
        .map((p) => p.name);

    it.each([
      ['name', (p: Provider) => p.name.toLowerCase()],
      ['createdTime', (p: Provider) => p.createdTime],
      ['type', (p: Provider) => p.type],
    ] as const)('sorts by %s, ascending and descending, ties broken the same way every time', async (sortBy, key) => {
      const all = (await page({ pageSize: 100 })).data;
      for (const order of ['asc', 'desc'] as const) {
        const sorted = names(await page({ sortBy, sortOrder: order, pageSize: 100 }));
        expect(sorted).toEqual(sortedBy(all, key, order));
        expect(names(await page({ sortBy, sortOrder: order.toUpperCase(), pageSize: 100 }))).toEqual(sorted);
        // Pages of a sorted list join up into the whole list.
        const pages = [];
        for (let p = 0; p < 3; p++) pages.push(...names(await page({ sortBy, sortOrder: order, page: p, pageSize: 10 })));
        expect(pages).toEqual(sorted);
      }
    });

    it('sorts by name, ascending, by default', async () => {
      expect(names(await page({ pageSize: 6 }))).toEqual([
        'Alpha reports',
        'bravo archive',
        'Charlie_scans',
        'Echo bucket',
        'Foxtrot 100%',
        'Zulu 01',
      ]);
      expect(names(await page({ sortOrder: 'desc', pageSize: 2 }))).toEqual(['Zulu 18', 'Zulu 17']);
    });

    it('filters by q, ignoring case and taking % and _ literally', async () => {
      const zulu = await page({ q: 'zULu' });
      expect(zulu).toMatchObject({ totalElements: ZULUS.length, hasNext: false });
      expect(names(zulu)).toEqual(ZULUS);
      expect(names(await page({ q: '100%' }))).toEqual(['Foxtrot 100%']);
      expect(names(await page({ q: '_' }))).toEqual(['Charlie_scans']);
      expect(names(await page({ q: 'ECHO' }))).toEqual(['Echo bucket']);
      expect(await page({ q: 'delta' })).toEqual({ data: [], totalElements: 0, totalPages: 0, hasNext: false });
      expect(await page({ q: 'zulu', pageSize: 5, page: 3 })).toMatchObject({ totalElements: ZULUS.length, totalPages: 4, hasNext: false });
    });

    it.each([
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=1001', 'pageSize'],
      ['pageSize=ten', 'pageSize'],
      ['sortBy=size', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ])('answers 400 naming the field for %s', async (query, field) => {
      const body = await errorBody(await stack.request(`/api/core/providers?${query}`, { token }), 400, 'VALIDATION_FAILED');
      expect(body.error).toBe('Bad Request');
      expect(body.details.length).toBeGreaterThan(0);
      expect(new Set(body.details.map((d) => d.field))).toEqual(new Set([field]));
      for (const d of body.details) expect(d.problem).toEqual(expect.any(String));
    });

    it('names every bad parameter of a request', async () => {
      const body = await errorBody(
        await stack.request('/api/core/providers?page=-1&sortBy=size&sortOrder=up', { token }),
        400,
        'VALIDATION_FAILED',
      );
      expect(new Set(body.details.map((d) => d.field))).toEqual(new Set(['page', 'sortBy', 'sortOrder']));
    });

    it('gets a provider by id, as the list shows it', async () => {
      for (const p of (await page({ pageSize: 6 })).data) {
        const { data, response } = await as().GET('/api/core/providers/{id}', { params: { path: { id: p.id.id } } });
        expect(response.status).toBe(200);
        expect(data).toEqual(p);
      }
    });

    it.each(['3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f'])('answers 404 for provider %s', async (id) => {
      const body = await errorBody(await stack.request(`/api/core/providers/${id}`, { token }), 404, 'NOT_FOUND');
      expect(body).toMatchObject({ error: 'Not Found', message: `Provider ${id} was not found` });
    });

    it('answers 400 naming the parameter for a provider id that is not a UUID', async () => {
      const body = await errorBody(await stack.request('/api/core/providers/not-a-uuid', { token }), 400, 'VALIDATION_FAILED');
      expect(body.details).toEqual([{ field: 'id', problem: 'must be a UUID' }]);
    });

    it('keeps a provider limited to one namespace out of the others', async () => {
      const acme = await page({ q: 'delta' }, { token: acmeToken });
      expect(names(acme)).toEqual(['Delta acme']);
      const id = acme.data[0].id.id;
      expect((await as({ token: acmeToken }).GET('/api/core/providers/{id}', { params: { path: { id } } })).data).toEqual(acme.data[0]);
      expect((await page({ pageSize: 100 }, { token: acmeToken })).totalElements).toBe(visibleToDefault + 1);

      const body = await errorBody(await stack.request(`/api/core/providers/${id}`, { token }), 403, 'FORBIDDEN');
      expect(body.message).toBe(`Provider ${id} is not available to namespace default`);
      expect(names(await page({ pageSize: 100 }))).not.toContain('Delta acme');
    });

    it('never shows credentials, endpoints or local paths in any response', async () => {
      await page({ pageSize: 100 }, { token: acmeToken });
      expect(bodies.length).toBeGreaterThan(10);
      const all = bodies.join('\n');
      for (const secret of [
        SECRETS.accessKey,
        SECRETS.secretKey,
        SECRETS.endpoint,
        dir,
        'accessKey',
        'secretKey',
        '"root"',
        '"endpoint"',
      ]) {
        expect(all).not.toContain(secret);
      }
    });
  });

  describe('OpenAPI', () => {
    it('serves the document, matching the reference for every operation both describe', async () => {
      const res = await stack.request('/api/docs-json');
      expect(res.status).toBe(200);
      const ours = (await res.json()) as OpenApiDocument;
      const reference = JSON.parse(
        readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
      ) as OpenApiDocument;
      const { matched, problems } = compareWithReference(ours, reference);
      expect(matched.map((m) => m.operationId)).toEqual(expect.arrayContaining(['listProviders', 'getProvider']));
      expect(problems).toEqual([]);
    });

    it('notices when an operation drifts from the reference', async () => {
      const ours = (await (await stack.request('/api/docs-json')).json()) as OpenApiDocument;
      const reference = JSON.parse(
        readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
      ) as OpenApiDocument;
      const drifted = JSON.parse(JSON.stringify(ours)) as OpenApiDocument;
      const list = drifted.paths['/api/core/providers'].get as { parameters: Array<{ name: string; schema: { type: string } }> };
      list.parameters.find((p) => p.name === 'page')!.schema.type = 'string';
      list.parameters = list.parameters.filter((p) => p.name !== 'q');
      const providerSchema = Object.values(drifted.components!.schemas!).find((s) => (s.properties as Record<string, unknown>)?.system)!;
      delete (providerSchema.properties as Record<string, unknown>).system;
      (providerSchema.properties as Record<string, unknown>).secret = { type: 'string' };
      const { problems } = compareWithReference(drifted, reference);
      expect(problems).toEqual(
        expect.arrayContaining([
          'GET /api/core/providers (listProviders): query parameter page: type string, reference integer',
          'GET /api/core/providers (listProviders): missing query parameter q',
          'GET /api/core/providers (listProviders): response 200.data[]: missing field(s) system',
          'GET /api/core/providers (listProviders): response 200.data[]: field(s) not in the reference secret',
          'GET /api/core/providers/{id} (getProvider): response 200: missing field(s) system',
        ]),
      );
    });

    it('documents the bearer token scheme and the error body', async () => {
      const doc = (await (await stack.request('/api/docs-json')).json()) as any;
      expect(doc.components.securitySchemes.TOKEN).toMatchObject({ type: 'http', scheme: 'bearer' });
      const list = doc.paths['/api/core/providers'].get;
      expect(list.security).toEqual([{ TOKEN: [] }]);
      expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    });

    it('serves the documentation page as HTML', async () => {
      const res = await stack.request('/api/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toMatch(/<html/i);
    });
  });
});

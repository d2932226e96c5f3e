import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createDocintelClient,
  DocintelApiError,
  unwrap,
  uploadMultipart,
  uploadViaPresignedUrl,
  waitForIndexedFile,
  waitForJob,
  type DocintelClient,
  type IndexedFile,
} from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';

/**
 * The generated client (libs/api-client) against the started services: the document it was
 * generated from is the one the gateway serves, and its calls and helpers work on the real API.
 */
describe('@docintel/api-client', () => {
  let stack: TestStack;
  let token: string;
  let api: DocintelClient;
  let providerId: string;
  const indexed: IndexedFile[] = [];

  const CONTRACT = 'SERVICE AGREEMENT\nThis agreement was signed on 14 March 2023.\nThe termination notice period is 90 days.\n';

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'apiclient' });
    token = await stack.token('default', 'client@example.com');
    api = createDocintelClient({ baseUrl: stack.baseUrl, token });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('the OpenAPI document', () => {
    it('is served at /api/docs-json as committed in libs/api-client/openapi.json (run npm run openapi when not)', async () => {
      const served: unknown = await (await stack.request('/api/docs-json')).json();
      const committed: unknown = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/api-client/openapi.json'), 'utf8'));
      // toEqual: the committed file has its keys sorted, the served document has them in code order.
      expect(served).toEqual(committed);
    });

    it('is exported from the built gateway without Postgres or NATS to the committed file (openapi.js --check)', async () => {
      // Services that cannot be reached: the exporter must not need them.
      const env = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', NATS_URL: 'nats://127.0.0.1:9' };
      const run = promisify(execFile)(process.execPath, [join(REPO_ROOT, 'apps/api-gateway/dist/cli/openapi.js'), '--check'], {
        cwd: REPO_ROOT,
        env,
      });
      await expect(run).resolves.toBeDefined();
    });
  });

  describe('calls', () => {
    it('lists the providers (page envelope, the default LOCAL provider)', async () => {
      const page = await unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }));
      expect(page).toMatchObject({ totalElements: 1, totalPages: 1, hasNext: false });
      expect(page.data[0]).toMatchObject({ type: 'LOCAL', name: 'Local storage' });
      providerId = page.data[0].id.id;
    });

    it('uploads through the presigned flow (upload URL, PUT, confirm), and the item is listed', async () => {
      const item = await uploadViaPresignedUrl(
        api,
        { providerId, key: 'client/contract.txt', body: CONTRACT, mediaType: 'text/plain' },
        { multipartFallback: false },
      );
      expect(item).toEqual({
        providerId,
        key: 'client/contract.txt',
        type: 'FILE',
        size: new TextEncoder().encode(CONTRACT).length,
        extension: 'txt',
        mediaType: 'text/plain',
        lastModified: expect.any(Number),
      });
      const content = await api.GET('/api/core/providers/{providerId}/items/content', {
        params: { path: { providerId }, query: { key: 'client/contract.txt' } },
        parseAs: 'text',
      });
      expect(content.data).toBe(CONTRACT);
    });

    it('uploads through multipart into a folder', async () => {
      const bytes = new TextEncoder().encode('{"title": "Notes", "pages": 3}\n');
      const item = await uploadMultipart(api, { providerId, key: 'client/notes.json', body: bytes, mediaType: 'application/json' });
      expect(item).toMatchObject({ key: 'client/notes.json', type: 'FILE', size: bytes.length, mediaType: 'application/json' });

      const listing = await unwrap(
        api.GET('/api/core/providers/{providerId}/items', { params: { path: { providerId }, query: { key: 'client/' } } }),
      );
      expect(listing.items.map((i) => i.key).sort()).toEqual(['client/contract.txt', 'client/notes.json']);
    });

    it('creates IndexedFiles and waits for their indexation with waitForIndexedFile', async () => {
      for (const key of ['client/contract.txt', 'client/notes.json']) {
        const created = await unwrap(api.POST('/api/core/files', { body: { providerId, key } }));
        expect(created).toMatchObject({ name: key.split('/')[1], providerId: { id: providerId } });
        const seen: string[] = [];
        const file = await waitForIndexedFile(api, created.id.id, {
          signal: AbortSignal.timeout(90_000),
          onPoll: (f) => seen.push(f.lastIndexationInfos.status),
        });
        expect({ key, status: file.lastIndexationInfos.status, error: file.lastIndexationInfos.errorMessage }).toEqual({
          key,
          status: 'SUCCESS',
          error: null,
        });
        expect(file.indexed).toBe(true);
        expect(seen[seen.length - 1]).toBe('SUCCESS');
        indexed.push(file);
      }
    });

    it('lists the files of the provider', async () => {
      const page = await unwrap(
        api.GET('/api/core/files', { params: { query: { providerId, page: 0, pageSize: 20, sortProperty: 'name' } } }),
      );
      expect(page.data.map((f) => [f.name, f.lastIndexationInfos.status])).toEqual([
        ['contract.txt', 'SUCCESS'],
        ['notes.json', 'SUCCESS'],
      ]);
      expect(page).toMatchObject({ totalElements: 2, hasNext: false });
    });

    it('runs a QA job and waits for it with waitForJob', async () => {
      const job = await unwrap(
        api.POST('/api/core/qa/jobs', {
          body: {
            files: { fileIds: [indexed[0].id.id] },
            questions: [{ id: 'notice', question: 'What is the termination notice period in days?', answerType: { dataType: 'INT' } }],
          },
        }),
      );
      const done = await waitForJob(api, 'qa', job.jobId, { signal: AbortSignal.timeout(90_000) });
      expect({ status: done.status, error: done.errorMessage }).toEqual({ status: 'SUCCESS', error: undefined });
      const outputs = await unwrap(api.GET('/api/core/qa/jobs/{jobId}/results', { params: { path: { jobId: job.jobId } } }));
      expect(outputs.results[0]).toMatchObject({ questionId: 'notice', found: true, answer: { longValue: 90 } });
    });
  });

  describe('errors', () => {
    it('are DocintelApiErrors with the code, message and request id of the error body', async () => {
      const missing = await unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: randomUUID() } } })).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(DocintelApiError);
      expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: expect.any(String) });

      const invalid = await unwrap(api.GET('/api/core/providers', { params: { query: { pageSize: 0 } } })).catch((e: unknown) => e);
      expect(invalid).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        details: [{ field: 'pageSize', problem: expect.any(String) }],
      });
    });

    it('answer a client without a token (401) and one in a namespace it is not a member of (403)', async () => {
      const anonymous = createDocintelClient({ baseUrl: stack.baseUrl, token: undefined });
      await expect(unwrap(anonymous.GET('/api/core/providers'))).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
      const elsewhere = createDocintelClient({ baseUrl: stack.baseUrl, token, namespace: 'not-mine' });
      await expect(unwrap(elsewhere.GET('/api/core/providers'))).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });
  });
});

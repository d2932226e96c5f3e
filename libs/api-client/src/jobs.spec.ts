import { createDocintelClient } from './client';
import { DocintelApiError } from './errors';
import { cancelJob, getAnnotations, getJob, listJobs, type CitedJobKind, type JobKind } from './jobs';
import { errorBody, fakeFetch, jsonResponse } from './testing/fake-fetch';

const BASE = 'http://gateway.test';
const KINDS: JobKind[] = ['qa', 'extraction', 'multi-dim-extraction', 'find-similar', 'agent'];

describe('the job calls by kind', () => {
  it('read, cancel and list citations at each kind’s own path', async () => {
    const { fetch, seen } = fakeFetch(
      Object.fromEntries(
        KINDS.flatMap((kind) => [
          [`GET /api/core/${kind}/jobs/j1`, () => jsonResponse({ jobId: 'j1', status: 'RUNNING', kind })],
          [`POST /api/core/${kind}/jobs/j1/cancel`, () => jsonResponse({ jobId: 'j1', status: 'ABORTED', kind })],
          [`GET /api/core/${kind}/jobs/j1/annotations`, () => jsonResponse([{ kind }])],
        ]),
      ),
    );
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch });
    for (const kind of KINDS) {
      await expect(getJob(api, kind, 'j1')).resolves.toMatchObject({ status: 'RUNNING', kind });
      await expect(cancelJob(api, kind, 'j1')).resolves.toMatchObject({ status: 'ABORTED', kind });
      if (kind !== 'find-similar') await expect(getAnnotations(api, kind as CitedJobKind, 'j1')).resolves.toEqual([{ kind }]);
    }
    expect(seen.map((r) => `${r.method} ${r.url.pathname}`)).toHaveLength(KINDS.length * 3 - 1);
  });

  it("lists each kind's jobs at its own path with the page asked for", async () => {
    const { fetch, seen } = fakeFetch(
      Object.fromEntries(
        KINDS.map((kind) => [
          `GET /api/core/${kind}/jobs`,
          () => jsonResponse({ data: [{ jobId: `${kind}-1` }], hasNext: true, totalElements: 11, totalPages: 2 }),
        ]),
      ),
    );
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch });
    for (const kind of KINDS) {
      await expect(listJobs(api, kind, { page: 1, pageSize: 10 })).resolves.toMatchObject({
        data: [{ jobId: `${kind}-1` }],
        hasNext: true,
      });
    }
    expect(seen.map((r) => `${r.url.pathname}?${r.url.searchParams.toString()}`)).toEqual(
      KINDS.map((kind) => `/api/core/${kind}/jobs?page=1&pageSize=10`),
    );
  });

  it("gives the server's error as a DocintelApiError", async () => {
    const { fetch } = fakeFetch({
      'GET /api/core/qa/jobs/nope': () => jsonResponse(errorBody(404, 'NOT_FOUND', 'Job nope not found'), 404),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch });
    const err = await getJob(api, 'qa', 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocintelApiError);
    expect(err).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

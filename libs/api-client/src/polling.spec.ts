import { createDocintelClient } from './client';
import { DocintelApiError } from './errors';
import type { JobKind } from './jobs';
import { pollDelay, pollUntil, waitForIndexedFile, waitForJob } from './polling';
import { errorBody, fakeFetch, findSimilarJob, indexedFile, job, jsonResponse } from './testing/fake-fetch';
import type { IndexationStatus } from './types';

const BASE = 'http://gateway.test';

describe('pollDelay', () => {
  it('waits 3 s before the first check, then doubles up to 30 s', () => {
    expect(Array.from({ length: 8 }, (_, i) => pollDelay(i))).toEqual([3000, 6000, 12000, 24000, 30000, 30000, 30000, 30000]);
  });

  it('takes another start, cap and factor; a factor of 1 is a fixed interval', () => {
    expect([0, 1, 2, 3].map((i) => pollDelay(i, { initialDelayMs: 100, maxDelayMs: 500, factor: 3 }))).toEqual([100, 300, 500, 500]);
    expect([0, 1, 5].map((i) => pollDelay(i, { factor: 1 }))).toEqual([3000, 3000, 3000]);
    // A cap below the start does not shorten the first wait; a factor below 1 does not shrink it.
    expect(pollDelay(0, { initialDelayMs: 5000, maxDelayMs: 1000 })).toBe(5000);
    expect(pollDelay(3, { factor: 0.5 })).toBe(3000);
  });
});

describe('pollUntil (fake timers)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Reads the given values in turn, recording when (fake ms since start) each read happened. */
  function reader<T>(values: T[]) {
    const start = Date.now();
    const at: number[] = [];
    const read = jest.fn(async () => {
      at.push(Date.now() - start);
      return values[Math.min(at.length - 1, values.length - 1)];
    });
    return { read, at };
  }

  it('checks at 3, 9, 21, 45, 75 and 105 s (waits of 3, 6, 12, 24, 30, 30 s) until done', async () => {
    const { read, at } = reader(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'SUCCESS']);
    const seen: string[] = [];
    const done = pollUntil(read, (s) => s === 'SUCCESS', { onPoll: (s) => seen.push(s) });

    await jest.advanceTimersByTimeAsync(2999);
    expect(read).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(at).toEqual([3000]);

    await jest.advanceTimersByTimeAsync(105_000 - 3000);
    await expect(done).resolves.toBe('SUCCESS');
    expect(at).toEqual([3000, 9000, 21000, 45000, 75000, 105000]);
    expect(seen).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'SUCCESS']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stops at once when aborted while waiting: rejects with the reason, no further read, no timer left', async () => {
    const { read } = reader(['RUNNING']);
    const controller = new AbortController();
    const done = pollUntil(read, () => false, { signal: controller.signal });
    const outcome = done.catch((e: unknown) => e);

    await jest.advanceTimersByTimeAsync(3000 + 6000 + 1000);
    expect(read).toHaveBeenCalledTimes(2);
    const reason = new Error('user left the page');
    controller.abort(reason);

    await expect(outcome).resolves.toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('passes the signal to the read, and rejects even when a read ignores it', async () => {
    const controller = new AbortController();
    const read = jest.fn(async (signal?: AbortSignal) => {
      expect(signal).toBe(controller.signal);
      controller.abort();
      return 'RUNNING';
    });
    const outcome = pollUntil(read, () => false, { signal: controller.signal }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    const err = (await outcome) as DOMException;
    expect(err.name).toBe('AbortError');
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('does not read at all with a signal already aborted', async () => {
    const { read } = reader(['SUCCESS']);
    await expect(pollUntil(read, () => true, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(read).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends with the error of a read', async () => {
    const read = jest.fn().mockRejectedValue(new Error('503'));
    const outcome = pollUntil(read, () => false).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    expect(await outcome).toEqual(new Error('503'));
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('waitForIndexedFile and waitForJob (fake timers, fake fetch)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each<IndexationStatus>(['SUCCESS', 'FAILED', 'ABORTED'])(
    'polls GET /api/core/files/{id} until %s and resolves with the file',
    async (terminal) => {
      const statuses: IndexationStatus[] = ['PENDING', 'RUNNING', terminal];
      const server = fakeFetch({ 'GET /api/core/files/f1': () => jsonResponse(indexedFile('f1', statuses.shift() ?? terminal)) });
      const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

      const done = waitForIndexedFile(api, 'f1');
      await jest.advanceTimersByTimeAsync(3000 + 6000 + 12000);

      await expect(done).resolves.toMatchObject({ id: { id: 'f1' }, lastIndexationInfos: { status: terminal } });
      expect(server.seen).toHaveLength(3);
      expect(server.seen.every((r) => r.headers.get('authorization') === 'Bearer t')).toBe(true);
    },
  );

  it('rejects with a DocintelApiError when the file is gone', async () => {
    const server = fakeFetch({ 'GET /api/core/files/f1': () => jsonResponse(errorBody(404, 'NOT_FOUND', 'No file f1'), 404) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const outcome = waitForIndexedFile(api, 'f1').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    const err = await outcome;
    expect(err).toBeInstanceOf(DocintelApiError);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('aborts the request in flight', async () => {
    const controller = new AbortController();
    let inFlight: AbortSignal | undefined;
    const api = createDocintelClient({
      baseUrl: BASE,
      token: 't',
      fetch: (request) => {
        inFlight = request.signal;
        return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      },
    });
    const outcome = waitForIndexedFile(api, 'f1', { signal: controller.signal }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    expect(inFlight?.aborted).toBe(false);
    controller.abort(new Error('stop'));
    expect(await outcome).toEqual(new Error('stop'));
    expect(inFlight?.aborted).toBe(true);
  });

  it.each<[JobKind, string]>([
    ['qa', '/api/core/qa/jobs/j1'],
    ['extraction', '/api/core/extraction/jobs/j1'],
    ['multi-dim-extraction', '/api/core/multi-dim-extraction/jobs/j1'],
    ['agent', '/api/core/agent/jobs/j1'],
  ])('polls a %s job at %s until SUCCESS', async (kind, path) => {
    const statuses = ['PENDING', 'RUNNING', 'SUCCESS'] as const;
    let n = 0;
    const server = fakeFetch({ [`GET ${path}`]: () => jsonResponse(job('j1', statuses[Math.min(n++, 2)])) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    const done = waitForJob(api, kind, 'j1');
    await jest.advanceTimersByTimeAsync(21_000);
    await expect(done).resolves.toMatchObject({ jobId: 'j1', status: 'SUCCESS' });
    expect(server.seen.map((r) => r.url.pathname)).toEqual([path, path, path]);
  });

  it('polls a find-similar job until COMPLETED', async () => {
    const statuses = ['RUNNING', 'COMPLETED'] as const;
    let n = 0;
    const server = fakeFetch({
      'GET /api/core/find-similar/jobs/j2': () => jsonResponse(findSimilarJob('j2', statuses[Math.min(n++, 1)])),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const done = waitForJob(api, 'find-similar', 'j2');
    await jest.advanceTimersByTimeAsync(9000);
    await expect(done).resolves.toMatchObject({ jobId: 'j2', status: 'COMPLETED' });
  });

  it.each(['FAILED', 'ABORTED'] as const)('stops on a job %s', async (terminal) => {
    const server = fakeFetch({ 'GET /api/core/qa/jobs/j3': () => jsonResponse({ ...job('j3', terminal), errorMessage: 'why' }) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const done = waitForJob(api, 'qa', 'j3');
    await jest.advanceTimersByTimeAsync(3000);
    await expect(done).resolves.toMatchObject({ status: terminal, errorMessage: 'why' });
    expect(server.seen).toHaveLength(1);
  });

  it('keeps following a job through 503s and a network failure when told to, and says so each time', async () => {
    const answers: Array<() => Response> = [
      () => jsonResponse(errorBody(503, 'UNAVAILABLE', 'job-orchestrator is starting'), 503),
      () => {
        throw new TypeError('fetch failed');
      },
      () => jsonResponse(job('j4', 'RUNNING')),
      () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      () => jsonResponse(job('j4', 'SUCCESS')),
    ];
    const server = fakeFetch({ 'GET /api/core/qa/jobs/j4': () => (answers.shift() ?? answers[0])() });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const seen: unknown[] = [];
    const polled: string[] = [];
    const done = waitForJob(api, 'qa', 'j4', {
      initialDelayMs: 1000,
      factor: 1,
      onTransientError: (err) => seen.push(err),
      onPoll: (j) => polled.push(j.status),
    });
    await jest.advanceTimersByTimeAsync(5000);
    await expect(done).resolves.toMatchObject({ status: 'SUCCESS' });
    expect(seen.map((e) => (e instanceof DocintelApiError ? e.status : (e as Error).name))).toEqual([503, 'TypeError', 502]);
    expect(polled).toEqual(['RUNNING', 'SUCCESS']);
  });

  it('still ends the wait on an error no retry can fix (404), even when told to retry transient ones', async () => {
    const server = fakeFetch({ 'GET /api/core/qa/jobs/j5': () => jsonResponse(errorBody(404, 'NOT_FOUND', 'No job j5'), 404) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const seen: unknown[] = [];
    const outcome = waitForJob(api, 'qa', 'j5', { onTransientError: (err) => seen.push(err) }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    expect(await outcome).toMatchObject({ status: 404 });
    expect(seen).toEqual([]);
  });

  it('without onTransientError a 503 ends the wait, as before', async () => {
    const server = fakeFetch({ 'GET /api/core/qa/jobs/j6': () => jsonResponse(errorBody(503, 'UNAVAILABLE', 'busy'), 503) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const outcome = waitForJob(api, 'qa', 'j6').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3000);
    expect(await outcome).toMatchObject({ status: 503 });
  });
});

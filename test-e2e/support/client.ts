/**
 * The e2e tests talk to the gateway through @docintel/api-client, as a client of the API would:
 * a typed client per caller, the library's waits at a test's cadence, and the status of a
 * well-formed call checked where a test cares about it. Deliberately malformed requests and the
 * error-shape checks (errorBody) keep raw fetch: see support/http.ts.
 */
import {
  createDocintelClient,
  pollUntil,
  waitForJob,
  type ApiData,
  type ApiResult,
  type BackoffOptions,
  type DocintelClient,
  type JobKind,
  type JobOf,
  type PollOptions,
  type Schemas,
} from '@docintel/api-client';
import type { TestStack } from '@docintel/testing';

/**
 * The tests' polling cadence: every 150 ms from the first check on. The library's default (3 s,
 * backing off to 30 s) is what the interface recommends to clients; a test wants its answer soon.
 */
export const TEST_POLLING: BackoffOptions = { initialDelayMs: 150, factor: 1 };

export interface ClientOptions {
  /** X-Namespace: another namespace of the token's user. */
  namespace?: string;
  /** Another gateway replica; the stack's own otherwise. */
  baseUrl?: string;
}

/** A typed client of the stack's gateway, acting with `token` (none: anonymous). */
export function clientFor(stack: TestStack, token: string | undefined, options: ClientOptions = {}): DocintelClient {
  return createDocintelClient({ baseUrl: options.baseUrl ?? stack.baseUrl, token, namespace: options.namespace });
}

/**
 * A multipart upload of `body` to `key` (into the key's folder), as uploadMultipart sends it, but
 * resolving with the client's result rather than the item: uploadMultipart keeps the status to
 * itself, and the tests check it (201).
 */
export function postItem(
  api: DocintelClient,
  input: { providerId: string; key: string; body: Blob | Buffer | string; mediaType?: string },
) {
  const slash = input.key.lastIndexOf('/');
  const blob = input.body instanceof Blob ? input.body : new Blob([input.body], input.mediaType ? { type: input.mediaType } : {});
  const form = new FormData();
  form.append('file', blob, input.key.slice(slash + 1));
  return api.POST('/api/core/providers/{providerId}/items', {
    params: { path: { providerId: input.providerId }, query: { key: input.key.slice(0, slash + 1) } },
    body: { file: blob },
    // openapi-fetch sends FormData as it is, and lets fetch write the multipart Content-Type.
    bodySerializer: () => form,
  });
}

/**
 * The data of a call that must answer `status` (200 by default): the status is asserted, and a
 * failure shows the URL and the body that came instead.
 */
export async function ok<R extends ApiResult>(call: R | PromiseLike<R>, status = 200): Promise<ApiData<R>> {
  const { data, error, response } = await call;
  const body = response.status === status ? undefined : (error ?? data);
  expect({ url: response.url, status: response.status, body }).toEqual({ url: response.url, status, body: undefined });
  return data as ApiData<R>;
}

/** The status a call answered (its body, if any, is already read). */
export async function statusOf(call: PromiseLike<ApiResult>): Promise<number> {
  return (await call).response.status;
}

/**
 * Runs one of the library's waits (pollUntil, waitForIndexedFile, waitForJob) at the tests'
 * cadence, bounded by `timeoutMs`: waiting is not timing, the bound only stops a hung run. Past
 * it, fails naming what it waited for and the last value seen.
 */
export async function within<T>(label: string, timeoutMs: number, wait: (options: PollOptions<T>) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  let last: { value: T } | undefined;
  try {
    return await wait({ ...TEST_POLLING, signal, onPoll: (value) => (last = { value }) });
  } catch (err) {
    if (!signal.aborted) throw err;
    const seen = last ? JSON.stringify(last.value, null, 1).slice(0, 3000) : 'nothing';
    throw new Error(`gave up waiting for ${label} after ${timeoutMs} ms; last seen: ${seen}`, { cause: err });
  }
}

/** Polls `read` (with pollUntil) until `ready` holds; fails with the last value seen. */
export function eventually<T>(label: string, read: () => Promise<T>, ready: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  return within(label, timeoutMs, (options) => pollUntil(() => read(), ready, options));
}

/** Waits (waitForJob) until the job is SUCCESS, COMPLETED (find-similar), FAILED or ABORTED. */
export function jobEnded<K extends JobKind>(api: DocintelClient, kind: K, jobId: string, timeoutMs = 120_000): Promise<JobOf<K>> {
  return within<JobOf<K>>(`${kind} job ${jobId}`, timeoutMs, (options) => waitForJob(api, kind, jobId, options));
}

type AnswerType = Schemas['AnswerTypeDto'];

/**
 * An answer type as a client sends it. The document gives `multiValued` a default (false), and
 * openapi-typescript makes a property with a default required, in request bodies too; the API
 * does not need it.
 */
export const answerType = (type: Omit<AnswerType, 'multiValued'> & Partial<Pick<AnswerType, 'multiValued'>>): AnswerType =>
  type as AnswerType;

import type { ErrorBody, FindSimilarJob, IndexationStatus, IndexedFile, Job, JobStatus, ProviderItem } from '../types';

/** A request as the fake server saw it, its body read once. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | FormData | undefined;
}

type Route = (req: SeenRequest) => Response | Promise<Response>;

/**
 * A fetch that answers from routes (`'GET /api/core/files/f1'`, path without the query) and
 * records every request; an unknown route is a 404 error body. Unit tests only.
 */
export function fakeFetch(routes: Record<string, Route> = {}) {
  const seen: SeenRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const contentType = request.headers.get('content-type') ?? '';
    const body =
      request.body === null ? undefined : contentType.startsWith('multipart/form-data') ? await request.formData() : await request.text();
    const req: SeenRequest = { method: request.method, url: new URL(request.url), headers: request.headers, body };
    seen.push(req);
    const route = routes[`${req.method} ${req.url.pathname}`];
    return route ? route(req) : jsonResponse(errorBody(404, 'NOT_FOUND', `No route for ${req.method} ${req.url.pathname}`), 404);
  };
  return { fetch, seen };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorBody(status: number, code: ErrorBody['code'], message: string, details: ErrorBody['details'] = []): ErrorBody {
  return { status, error: 'Error', code, message, details, requestId: `req-${status}` };
}

export function indexedFile(id: string, status: IndexationStatus, overrides: Partial<IndexedFile> = {}): IndexedFile {
  const who = { id: 'u1', entityType: 'USER' };
  return {
    id: { id, entityType: 'FILE' },
    createdTime: 0,
    owner: who,
    policy: { id: 'p', entityType: 'POLICY' },
    providerId: { id: 'prov', entityType: 'PROVIDER' },
    name: 'a.txt',
    path: 'a.txt',
    size: 1,
    extension: 'txt',
    indexed: status === 'SUCCESS',
    matchComputed: false,
    displayName: 'a.txt',
    dbName: 'a.txt',
    lastIndexationInfos: { status, errorMessage: status === 'FAILED' ? 'parse error' : null },
    ownerFirstName: '',
    ownerLastName: '',
    ownerEmail: '',
    ownerAvatarUrl: '',
    providerName: 'Local storage',
    additionalInfo: {},
    additionalInfos: {},
    type: 'FILE',
    ...overrides,
  };
}

export function job(jobId: string, status: Exclude<JobStatus, 'COMPLETED'>): Job {
  return { jobId, status, taskType: 'QA', createdTime: 0, name: 'job', archived: false };
}

export function findSimilarJob(jobId: string, status: FindSimilarJob['status']): FindSimilarJob {
  return {
    jobId,
    status,
    createdTime: 0,
    modifiedTime: 0,
    sources: { sourceIdentifiers: [{ id: 'f1' }] },
    result: [],
    statistics: {
      sourcesQueried: 1,
      sourcesMatchedLocally: 0,
      sourcesMatchedRemotely: 0,
      sourcesUnmatched: 0,
      remoteSearchStatus: 'NOT_NEEDED',
      totalFileMatches: 0,
      totalMetadataOnlyMatches: 0,
      errorsBySearchResultId: {},
    },
  };
}

export function providerItem(key: string, overrides: Partial<ProviderItem> = {}): ProviderItem {
  return {
    providerId: 'prov',
    key,
    type: 'FILE',
    size: 5,
    extension: key.split('.').pop() ?? null,
    mediaType: 'text/plain',
    lastModified: 0,
    ...overrides,
  };
}

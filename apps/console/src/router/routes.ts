/**
 * Every page of the console: how its URL is written (`paths`) and read (`matchRoute`). A new flow
 * adds a Route variant, a path builder and a line in matchRoute; App renders it with an
 * exhaustive switch, so a route without a page does not compile.
 */
import { documentLink, readDocumentTarget, type DocumentTarget } from './document-links';

export type Route =
  | { name: 'home' }
  | { name: 'signIn'; next: string | null }
  | { name: 'providers' }
  | { name: 'items'; providerId: string; dir: string }
  | { name: 'files'; providerId: string; page: number }
  | { name: 'file'; fileId: string }
  | { name: 'document'; fileId: string; target: DocumentTarget }
  | { name: 'collections'; page: number }
  | { name: 'collection'; collectionId: string; page: number }
  | { name: 'ask'; question: string | null; jobId: string | null }
  | { name: 'jobs'; kind: JobTab; jobId: string | null }
  | { name: 'rules' }
  | { name: 'rule'; triggerId: string }
  | { name: 'notFound'; path: string };

/** The tabs of the "Ask and extract" area, one per job kind (their URL segment). */
export const JOB_TABS = ['qa', 'extraction', 'table', 'similar', 'agent'] as const;
export type JobTab = (typeof JOB_TABS)[number];
const isJobTab = (s: string): s is JobTab => (JOB_TABS as readonly string[]).includes(s);

const withQuery = (path: string, query: Record<string, string | number | null | undefined>): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
};

const seg = encodeURIComponent;

export const paths = {
  home: () => '/',
  signIn: (next?: string | null) => withQuery('/sign-in', { next }),
  providers: () => '/providers',
  items: (providerId: string, dir = '') => withQuery(`/providers/${seg(providerId)}/items`, { key: dir }),
  files: (providerId: string, page = 0) => withQuery(`/providers/${seg(providerId)}/files`, { page: page || null }),
  file: (fileId: string) => `/files/${seg(fileId)}`,
  document: (fileId: string, target?: DocumentTarget) => documentLink(fileId, target),
  rules: () => '/rules',
  rule: (triggerId: string) => `/rules/${seg(triggerId)}`,
  collections: (page = 0) => withQuery('/collections', { page: page || null }),
  collection: (collectionId: string, page = 0) => withQuery(`/collections/${seg(collectionId)}`, { page: page || null }),
  ask: (question?: string | null, jobId?: string | null) => withQuery('/ask', { q: question, job: jobId }),
  jobs: (kind: JobTab = 'qa', jobId?: string | null) => withQuery(`/jobs/${kind}`, { job: jobId }),
};

/** The route of a location (pathname and search, as in window.location). */
export function matchRoute(pathname: string, search = ''): Route {
  const query = new URLSearchParams(search);
  const parts = pathname
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  if (parts.length === 0) return { name: 'home' };
  if (parts.length === 1 && parts[0] === 'sign-in') return { name: 'signIn', next: query.get('next') };
  if (parts[0] === 'providers') {
    if (parts.length === 1) return { name: 'providers' };
    if (parts.length === 3 && parts[2] === 'items') return { name: 'items', providerId: parts[1], dir: normalize(query.get('key')) };
    if (parts.length === 3 && parts[2] === 'files') {
      const page = Number(query.get('page') ?? 0);
      return { name: 'files', providerId: parts[1], page: Number.isInteger(page) && page >= 0 ? page : 0 };
    }
  }
  if (parts.length === 2 && parts[0] === 'files') return { name: 'file', fileId: parts[1] };
  if (parts.length === 3 && parts[0] === 'files' && parts[2] === 'document')
    return { name: 'document', fileId: parts[1], target: readDocumentTarget(query) };
  if (parts[0] === 'rules' && parts.length === 1) return { name: 'rules' };
  if (parts[0] === 'rules' && parts.length === 2) return { name: 'rule', triggerId: parts[1] };
  if (parts[0] === 'collections' && parts.length <= 2) {
    const page = pageOf(query);
    return parts.length === 1 ? { name: 'collections', page } : { name: 'collection', collectionId: parts[1], page };
  }
  if (parts[0] === 'ask' && parts.length === 1)
    return { name: 'ask', question: query.get('q')?.trim() || null, jobId: query.get('job') || null };
  if (parts[0] === 'jobs' && parts.length === 1) return { name: 'jobs', kind: 'qa', jobId: null };
  if (parts[0] === 'jobs' && parts.length === 2 && isJobTab(parts[1]))
    return { name: 'jobs', kind: parts[1], jobId: query.get('job') || null };
  return { name: 'notFound', path: pathname };
}

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page') ?? 0);
  return Number.isInteger(page) && page >= 0 ? page : 0;
}

function normalize(key: string | null): string {
  if (!key || key === '/') return '';
  return key.endsWith('/') ? key : `${key}/`;
}

/** A `next` target after sign-in: only a path of this console, never another origin. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/sign-in')) return paths.providers();
  return next;
}

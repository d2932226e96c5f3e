import { setTimeout as sleep } from 'node:timers/promises';
import { RemoteLookupError, type BibliographicSource, type BibliographicWork, type WorkIdentifier } from './bibliographic-source';

export interface OpenAlexOptions {
  /** e.g. https://api.openalex.org */
  baseUrl: string;
  /** Sent as `mailto=` (OpenAlex's polite pool). */
  mailto?: string;
  timeoutMs: number;
  /** Retries after a timeout, 429, 5xx or a network error. */
  retries: number;
  /** First back-off; doubled each retry (a Retry-After header, when shorter than 30 s, wins). */
  retryBaseDelayMs?: number;
}

/** The parts of an OpenAlex Work object (GET /works/{id}) that find-similar reads. */
export interface OpenAlexWork {
  id?: string;
  doi?: string | null;
  title?: string | null;
  display_name?: string | null;
  publication_year?: number | null;
  authorships?: Array<{
    author_position?: string;
    author?: { id?: string; display_name?: string | null } | null;
    raw_author_name?: string | null;
  }> | null;
  abstract_inverted_index?: Record<string, number[]> | null;
  keywords?: Array<{ id?: string; display_name?: string | null; keyword?: string | null; score?: number | null }> | null;
  concepts?: Array<{ id?: string; wikidata?: string; display_name?: string | null; score?: number | null; level?: number | null }> | null;
  topics?: Array<{ display_name?: string | null; score?: number | null }> | null;
}

const MAX_RETRY_AFTER_MS = 30_000;

/** The abstract's text from OpenAlex's inverted index ({word: [positions]}). */
export function abstractFromInvertedIndex(index: Record<string, number[]> | null | undefined): string | undefined {
  if (!index || typeof index !== 'object') return undefined;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < 100_000) words[p] = word;
  }
  const text = words
    .filter((w) => w !== undefined)
    .join(' ')
    .trim();
  return text || undefined;
}

/** `https://doi.org/10.7554/eLife.56337` -> `10.7554/elife.56337`. */
const bareDoi = (doi: string) =>
  doi
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:/i, '')
    .toLowerCase();

/** An OpenAlex Work as ours; null when it has no id or no title (nothing to search by). */
export function workFromOpenAlex(w: OpenAlexWork): BibliographicWork | null {
  const title = (w.title ?? w.display_name ?? '').trim();
  if (typeof w.id !== 'string' || !w.id || !title) return null;
  const authors = (w.authorships ?? [])
    .map((a) => (a?.author?.display_name ?? a?.raw_author_name ?? '').trim())
    .filter((name) => name.length > 0);
  const keywords: string[] = [];
  const seen = new Set<string>();
  const add = (name: string | null | undefined) => {
    const k = name?.trim();
    if (k && !seen.has(k.toLowerCase())) {
      seen.add(k.toLowerCase());
      keywords.push(k);
    }
  };
  for (const k of w.keywords ?? []) add(k?.display_name ?? k?.keyword);
  // Concepts are broad (level 0 is "Biology"); only the specific ones with some confidence say what the work is about.
  for (const c of [...(w.concepts ?? [])]
    .filter((c) => (c?.level ?? 0) >= 1 && (c?.score ?? 0) >= 0.3)
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))) {
    add(c.display_name);
  }
  for (const t of w.topics ?? []) add(t?.display_name);
  const work: BibliographicWork = { id: w.id, title, authors: [...new Set(authors)], keywords: keywords.slice(0, 30) };
  if (w.doi) work.doi = bareDoi(w.doi);
  if (Number.isInteger(w.publication_year)) work.year = w.publication_year as number;
  const abstract = abstractFromInvertedIndex(w.abstract_inverted_index);
  if (abstract) work.abstract = abstract;
  return work;
}

/** The path of a lookup: /works/doi:10.…, /works/pmcid:PMC… (OpenAlex's external-id URNs). */
export function workPath(id: WorkIdentifier): string {
  return `/works/${id.kind}:${encodeURIComponent(id.value).replace(/%2F/gi, '/')}`;
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * The OpenAlex works API (https://docs.openalex.org/api-entities/works/get-a-single-work): a work
 * by DOI or PMCID. 404 means unknown; a timeout, 408, 429, 5xx or a network error is retried
 * `retries` times with exponential back-off (Retry-After honoured up to 30 s), then reported as a
 * RemoteLookupError naming the URL and the last reason.
 */
export class OpenAlexSource implements BibliographicSource {
  readonly name = 'openalex';
  private readonly base: string;

  constructor(private readonly options: OpenAlexOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async lookup(id: WorkIdentifier, signal?: AbortSignal): Promise<BibliographicWork | null> {
    const url = new URL(`${this.base}${workPath(id)}`);
    if (this.options.mailto) url.searchParams.set('mailto', this.options.mailto);
    const shown = `${this.base}${workPath(id)}`;
    let last = '';
    let attempts = 0;
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      signal?.throwIfAborted();
      attempts++;
      let retryAfterMs: number | undefined;
      try {
        const res = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: signal
            ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)])
            : AbortSignal.timeout(this.options.timeoutMs),
        });
        if (res.status === 404) {
          await res.body?.cancel();
          return null;
        }
        if (res.ok) {
          const body = (await res.json().catch(() => null)) as OpenAlexWork | null;
          if (!body || typeof body !== 'object') throw new RemoteLookupError(`OpenAlex answered ${shown} with a body that is not JSON`);
          return workFromOpenAlex(body);
        }
        const text = (await res.text().catch(() => '')).slice(0, 200);
        last = `HTTP ${res.status}${text ? `: ${text}` : ''}`;
        if (!retryable(res.status)) break;
        const after = Number(res.headers.get('retry-after'));
        if (Number.isFinite(after) && after >= 0) retryAfterMs = Math.min(after * 1000, MAX_RETRY_AFTER_MS);
      } catch (err) {
        if (err instanceof RemoteLookupError) throw err;
        if (signal?.aborted) throw signal.reason as Error;
        const e = err as Error & { cause?: { code?: string } };
        last =
          e.name === 'TimeoutError'
            ? `no answer within ${this.options.timeoutMs} ms`
            : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`;
      }
      if (attempt < this.options.retries) {
        await sleep(retryAfterMs ?? (this.options.retryBaseDelayMs ?? 500) * 2 ** attempt, undefined, signal ? { signal } : undefined);
      }
    }
    throw new RemoteLookupError(`OpenAlex could not answer ${shown} after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${last}`);
  }
}

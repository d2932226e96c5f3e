import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT, type TestStack } from '@docintel/testing';

export const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');

export type Status = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'ABORTED';

export interface StepInfo {
  status: 'PENDING' | 'RUNNING' | 'SUCCESS' | 'SKIPPED' | 'FAILED';
  requestedTime: number;
  generation: number;
  batches: number;
  batchesDone: number;
  totalNodes: number;
  reason: string | null;
  lastError: string | null;
  embeddedNodes?: number;
  augmentedNodes?: number;
  [key: string]: unknown;
}

export interface IndexedFile {
  id: { id: string };
  name: string;
  size: number;
  checksum: string | null;
  mediaType: string | null;
  indexed: boolean;
  title: string | null;
  authors: string | null;
  description: string | null;
  lastIndexationInfos: { status: Status; errorMessage: string | null };
  additionalInfos: {
    node_embedding?: StepInfo;
    formula_augmentation?: StepInfo;
    ontologies?: { status: string; concepts: number; lastError: string | null };
    parsing?: { format: string; mediaType: string; nodes: number; warnings: string[] };
    [key: string]: unknown;
  };
}

export const TERMINAL: Status[] = ['SUCCESS', 'FAILED', 'ABORTED'];
const STEP_DONE = ['SUCCESS', 'SKIPPED', 'FAILED'];

/** Polls until `ready` holds; fails with the last value seen. Waiting is not timing: the bound only stops a hung run. */
export async function eventually<T>(label: string, read: () => Promise<T>, ready: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!ready(last)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${label}; last seen: ${JSON.stringify(last, null, 1).slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 150));
    last = await read();
  }
  return last;
}

/** A user of one namespace indexing files through the gateway, as a client would. */
export class Indexer {
  constructor(
    readonly stack: TestStack,
    readonly token: string,
    readonly providerId: string,
    /** Another gateway replica to send requests to, or the stack's own. */
    readonly baseUrl: string = stack.baseUrl,
  ) {}

  static async forNamespace(stack: TestStack, namespace: string, email: string): Promise<Indexer> {
    const token = await stack.token(namespace, email);
    const res = await stack.request('/api/core/providers', { token });
    const providers = (await res.json()) as { data: Array<{ id: { id: string } }> };
    return new Indexer(stack, token, providers.data[0].id.id);
  }

  via(baseUrl: string): Indexer {
    return new Indexer(this.stack, this.token, this.providerId, baseUrl);
  }

  call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  /** Uploads a corpus document (path under ../shared/corpus) or given bytes to `key`. */
  async upload(key: string, source: { corpus: string } | { bytes: Buffer | string }): Promise<Buffer> {
    const bytes = 'corpus' in source ? readFileSync(join(CORPUS, source.corpus)) : Buffer.from(source.bytes);
    const slash = key.lastIndexOf('/');
    const form = new FormData();
    form.append('file', new Blob([bytes]), key.slice(slash + 1));
    const res = await fetch(
      `${this.baseUrl}/api/core/providers/${this.providerId}/items?key=${encodeURIComponent(key.slice(0, slash + 1))}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}` },
        body: form,
      },
    );
    if (res.status !== 201) throw new Error(`upload of ${key} answered ${res.status}: ${await res.text()}`);
    return bytes;
  }

  async create(key: string): Promise<IndexedFile> {
    const res = await this.call('POST', '/api/core/files', { providerId: this.providerId, key });
    if (res.status !== 201) throw new Error(`POST /files for ${key} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as IndexedFile;
  }

  /** Uploads and creates the IndexedFile. */
  async index(key: string, source: { corpus: string } | { bytes: Buffer | string }): Promise<IndexedFile> {
    await this.upload(key, source);
    return this.create(key);
  }

  async get(id: string): Promise<IndexedFile> {
    const res = await this.call('GET', `/api/core/files/${id}`);
    if (res.status !== 200) throw new Error(`GET /files/${id} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as IndexedFile;
  }

  /** Waits for the indexation to end (SUCCESS, FAILED or ABORTED). */
  settled(id: string, timeoutMs?: number): Promise<IndexedFile> {
    return eventually(
      `file ${id} to settle`,
      () => this.get(id),
      (f) => TERMINAL.includes(f.lastIndexationInfos.status),
      timeoutMs,
    );
  }

  /** Waits for the indexation and the given asynchronous steps to be over. */
  stepsSettled(
    id: string,
    steps: Array<'node_embedding' | 'formula_augmentation' | 'ontologies' | 'passage_indexing'>,
    timeoutMs?: number,
  ): Promise<IndexedFile> {
    return eventually(
      `steps ${steps.join(', ')} of file ${id}`,
      () => this.get(id),
      (f) => TERMINAL.includes(f.lastIndexationInfos.status) && steps.every((s) => STEP_DONE.includes(f.additionalInfos[s]?.status ?? '')),
      timeoutMs,
    );
  }

  async document(id: string, format: 'json' | 'markdown' | 'text' = 'json'): Promise<Response> {
    return this.call('GET', `/api/core/files/${id}/document?format=${format}`);
  }

  async rule(trigger: string, filter: Record<string, unknown> | null): Promise<number> {
    const res =
      filter === null ? await this.call('DELETE', `/v1/rules/${trigger}`) : await this.call('PUT', `/v1/rules/${trigger}`, { filter });
    return res.status;
  }
}

/** Direct reads of the indexing schema, for facts the API does not show (vectors). */
export class IndexingDb {
  private constructor(private readonly client: Client) {}

  static async connect(stack: TestStack): Promise<IndexingDb> {
    const client = new Client({ connectionString: stack.infra.databaseUrl });
    await client.connect();
    return new IndexingDb(client);
  }

  async vectors(fileId: string): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM indexing.node_embeddings WHERE file_id = $1`, [
      fileId,
    ]);
    return rows[0].n;
  }

  async nodes(fileId: string): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM indexing.nodes WHERE file_id = $1`, [fileId]);
    return rows[0].n;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

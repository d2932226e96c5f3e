import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  INDEXATION_TERMINAL_STATUSES,
  unwrap,
  uploadMultipart,
  waitForIndexedFile,
  type DocintelClient,
  type DocumentNode,
  type IndexationStatus,
  type IndexedFile as ApiIndexedFile,
} from '@docintel/api-client';
import { REPO_ROOT, type TestStack } from '@docintel/testing';
import { clientFor, eventually, ok, within } from './client';

export { eventually } from './client';

export const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');

export type Status = IndexationStatus;

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

/** What indexing-service records in additionalInfos, which the OpenAPI document declares as a free-form object. */
export interface AdditionalInfos {
  node_embedding?: StepInfo;
  formula_augmentation?: StepInfo;
  passage_indexing?: StepInfo;
  ontologies?: { status: string; concepts: number; lastError: string | null; updatedTime?: number };
  parsing?: { format: string; mediaType: string; nodes: number; warnings: string[] };
  [key: string]: unknown;
}

/** An IndexedFile as the client reads it, with additionalInfos read as indexing-service fills it in. */
export type IndexedFile = Omit<ApiIndexedFile, 'additionalInfos'> & { additionalInfos: AdditionalInfos };

// The document leaves additionalInfos free-form: the tests read the steps' records in it.
const withSteps = (file: ApiIndexedFile): IndexedFile => file as IndexedFile;

export const TERMINAL: readonly Status[] = INDEXATION_TERMINAL_STATUSES;
const STEP_DONE = ['SUCCESS', 'SKIPPED', 'FAILED'];

type DocumentFormat = 'json' | 'markdown' | 'text';

/** A user of one namespace indexing files through the gateway, as a client would (@docintel/api-client). */
export class Indexer {
  /** The typed client, acting with this user's token. */
  readonly api: DocintelClient;

  constructor(
    readonly stack: TestStack,
    readonly token: string,
    readonly providerId: string,
    /** Another gateway replica to send requests to, or the stack's own. */
    readonly baseUrl: string = stack.baseUrl,
  ) {
    this.api = clientFor(stack, token, { baseUrl });
  }

  static async forNamespace(stack: TestStack, namespace: string, email: string): Promise<Indexer> {
    const token = await stack.token(namespace, email);
    const providers = await unwrap(clientFor(stack, token).GET('/api/core/providers'));
    return new Indexer(stack, token, providers.data[0].id.id);
  }

  via(baseUrl: string): Indexer {
    return new Indexer(this.stack, this.token, this.providerId, baseUrl);
  }

  /** A raw request, for what the client cannot send (malformed requests) and the error-shape checks (errorBody). */
  call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  /** Uploads (multipart) a corpus document (path under ../shared/corpus) or given bytes to `key`. */
  async upload(key: string, source: { corpus: string } | { bytes: Buffer | string }): Promise<Buffer> {
    const bytes = 'corpus' in source ? readFileSync(join(CORPUS, source.corpus)) : Buffer.from(source.bytes);
    await uploadMultipart(this.api, { providerId: this.providerId, key, body: bytes });
    return bytes;
  }

  async create(key: string): Promise<IndexedFile> {
    return withSteps(await ok(this.api.POST('/api/core/files', { body: { providerId: this.providerId, key } }), 201));
  }

  /** Uploads and creates the IndexedFile. */
  async index(key: string, source: { corpus: string } | { bytes: Buffer | string }): Promise<IndexedFile> {
    await this.upload(key, source);
    return this.create(key);
  }

  async get(id: string): Promise<IndexedFile> {
    return withSteps(await ok(this.api.GET('/api/core/files/{id}', { params: { path: { id } } })));
  }

  /** Waits (waitForIndexedFile) for the indexation to end (SUCCESS, FAILED or ABORTED). */
  async settled(id: string, timeoutMs = 90_000): Promise<IndexedFile> {
    return withSteps(await within(`file ${id} to settle`, timeoutMs, (options) => waitForIndexedFile(this.api, id, options)));
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

  /** GET /files/{id}/document: the client's result, the node tree for json, the rendered document otherwise. */
  document(id: string, format?: 'json'): Promise<{ data?: DocumentNode; error?: unknown; response: Response }>;
  document(id: string, format: 'markdown' | 'text'): Promise<{ data?: string; error?: unknown; response: Response }>;
  async document(
    id: string,
    format: DocumentFormat = 'json',
  ): Promise<{ data?: DocumentNode | string; error?: unknown; response: Response }> {
    const init = { params: { path: { id }, query: { format } } };
    if (format !== 'json') return this.api.GET('/api/core/files/{id}/document', { ...init, parseAs: 'text' });
    // The 200 of this operation has three media types: format=json is the node tree.
    const { data, error, response } = await this.api.GET('/api/core/files/{id}/document', init);
    return { data: data as DocumentNode | undefined, error, response };
  }

  /** The node tree of an indexed file (200 expected). */
  async tree(id: string): Promise<DocumentNode> {
    return (await ok(this.document(id, 'json'))) as DocumentNode;
  }

  /** The document in reading order, as Markdown or text (200 expected). */
  async text(id: string, format: 'markdown' | 'text' = 'text'): Promise<string> {
    return (await ok(this.document(id, format))) as string;
  }

  /** POST /files/{id}/reindex (with reparse: a new parse of the content); resolves with the status. */
  async reindex(id: string, reparse?: boolean): Promise<number> {
    const query = reparse === undefined ? {} : { reparse };
    return (await this.api.POST('/api/core/files/{id}/reindex', { params: { path: { id }, query } })).response.status;
  }

  /** Puts the namespace's rule of a trigger (PUT), or deletes it (filter null); resolves with the status. */
  async rule(trigger: string, filter: Record<string, unknown> | null): Promise<number> {
    const path = { params: { path: { trigger_id: trigger } } };
    const { response } =
      filter === null
        ? await this.api.DELETE('/v1/rules/{trigger_id}', path)
        : await this.api.PUT('/v1/rules/{trigger_id}', { ...path, body: { filter } });
    return response.status;
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

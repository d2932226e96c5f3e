/**
 * Shared set-up of the provider-items end-to-end suites: a stack whose PROVIDERS_FILE lists the
 * providers under test, callers in two namespaces, and small HTTP helpers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import type { DocintelClient, ProviderItem, ProviderItemListing, UploadUrlRequest, UploadUrlResponse } from '@docintel/api-client';
import { eventually as pollUntilDefined, TestStack } from '@docintel/testing';
import { clientFor, ok } from './support/client';

export const NAMESPACE = 'acme';
export const OTHER_NAMESPACE = 'globex';
/** Small on purpose, so that the 413 case costs little. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;
export const SIGNING_SECRET = 'e2e-signing-secret-0123456789abcdef0123456789';

export interface ProviderEntry {
  id: string;
  name: string;
  type: 'LOCAL' | 'S3';
  namespaces?: string[] | Record<string, { root?: string; prefix?: string } | null>;
  [setting: string]: unknown;
}

export interface StorageStack {
  stack: TestStack;
  /** Token of a user of NAMESPACE. */
  token: string;
  /** Token of a user of OTHER_NAMESPACE. */
  otherToken: string;
  close(): Promise<void>;
}

export async function startStorageStack(
  label: string,
  providers: ProviderEntry[],
  env: Record<string, string> = {},
): Promise<StorageStack> {
  const dir = mkdtempSync(join(tmpdir(), 'docintel-providers-'));
  const file = join(dir, 'providers.json');
  writeFileSync(file, JSON.stringify({ providers }, null, 2));
  const stack = await TestStack.start({
    label,
    apps: ['storage-service', 'api-gateway'],
    env: { PROVIDERS_FILE: file, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), STORAGE_SIGNING_SECRET: SIGNING_SECRET, ...env },
  });
  const token = await stack.token(NAMESPACE, 'alice@acme.test');
  const otherToken = await stack.token(OTHER_NAMESPACE, 'bob@globex.test');
  return { stack, token, otherToken, close: () => stack.stop() };
}

export type Item = ProviderItem;
export type Listing = ProviderItemListing;

/**
 * The items API of one provider, as one caller. The methods that resolve with a Response are raw
 * requests, for the error-shape checks (errorBody) and what the client cannot send; the others go
 * through the typed client (@docintel/api-client) and resolve with its result (data, error,
 * response) or, for listOk, listAll and keys, with the data.
 */
export class ItemsApi {
  /** The typed client acting as this caller. */
  readonly client: DocintelClient;

  constructor(
    private readonly stack: TestStack,
    readonly providerId: string,
    private readonly token: string | undefined,
  ) {
    this.client = clientFor(stack, token);
  }

  private get provider() {
    return { path: { providerId: this.providerId } };
  }

  path(suffix = '', query: Record<string, string | number | undefined> = {}): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
    const qs = q.toString();
    return `/api/core/providers/${encodeURIComponent(this.providerId)}/items${suffix}${qs ? `?${qs}` : ''}`;
  }

  request(
    method: string,
    suffix = '',
    query: Record<string, string | number | undefined> = {},
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const init: RequestInit & { token?: string } = { method, token: this.token, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    return this.stack.request(this.path(suffix, query), init);
  }

  list(query: { key?: string; q?: string; cursor?: string; limit?: number } = {}): Promise<Response> {
    return this.request('GET', '', query);
  }

  async listOk(query: { key?: string; q?: string; cursor?: string; limit?: number } = {}): Promise<Listing> {
    const { data, error, response } = await this.client.GET('/api/core/providers/{providerId}/items', {
      params: { ...this.provider, query },
    });
    expect({ status: response.status, body: response.status === 200 ? '' : error }).toEqual({ status: 200, body: '' });
    return data as Listing;
  }

  /** Every item of a directory, following nextCursor. */
  async listAll(key = '', limit = 1000): Promise<Item[]> {
    const all: Item[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listOk({ key, cursor, limit });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  async keys(key = ''): Promise<string[]> {
    return (await this.listAll(key)).map((i) => i.key);
  }

  upload(
    directory: string | undefined,
    name: string,
    bytes: Buffer | string,
    type = 'application/octet-stream',
    part = 'file',
  ): Promise<Response> {
    const form = new FormData();
    form.append(part, new Blob([bytes], { type }), name);
    return this.stack.request(this.path('', { key: directory }), { method: 'POST', token: this.token, body: form });
  }

  /** A multipart body written by hand (part headers as given), for what FormData cannot send. */
  uploadRaw(directory: string | undefined, body: string | Buffer, boundary = 'docintel-e2e-raw'): Promise<Response> {
    return this.stack.request(this.path('', { key: directory }), {
      method: 'POST',
      token: this.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
  }

  createFolder(key: string): Promise<Response> {
    return this.request('POST', '', {}, { key });
  }

  delete(key: string): Promise<Response> {
    return this.request('DELETE', '', {}, { key });
  }

  rename(key: string, newName: string | undefined): Promise<Response> {
    return this.request('PATCH', '', { newName }, { key });
  }

  uploadUrl(body: { key: string; size?: number; mediaType?: string }): Promise<Response> {
    return this.request('POST', '/upload-url', {}, body);
  }

  confirm(key: string): Promise<Response> {
    return this.request('POST', '/confirm', {}, { key });
  }

  downloadUrl(key: string, expirationMinutes?: number | string): Promise<Response> {
    return this.request('GET', '/download-url', { key, expirationMinutes: expirationMinutes as number | undefined });
  }

  content(key: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request('GET', '/content', { key }, undefined, headers);
  }

  /** A multipart upload (part `file`) into `directory` (the root when undefined). */
  send(directory: string | undefined, name: string, bytes: Buffer | string, type = 'application/octet-stream') {
    const file = new Blob([bytes], { type });
    const form = new FormData();
    form.append('file', file, name);
    return this.client.POST('/api/core/providers/{providerId}/items', {
      params: { ...this.provider, query: { key: directory } },
      body: { file },
      // openapi-fetch sends FormData as it is, and lets fetch write the multipart Content-Type.
      bodySerializer: () => form,
    });
  }

  /** Creates a folder (JSON { key }). */
  folder(key: string) {
    return this.client.POST('/api/core/providers/{providerId}/items', { params: this.provider, body: { key } });
  }

  /** Deletes an item; the body, if any, is left unread (parseAs stream), for a test to check. */
  remove(key: string) {
    return this.client.DELETE('/api/core/providers/{providerId}/items', { params: this.provider, body: { key }, parseAs: 'stream' });
  }

  renameTo(key: string, newName: string) {
    return this.client.PATCH('/api/core/providers/{providerId}/items', { params: { ...this.provider, query: { newName } }, body: { key } });
  }

  presignUpload(body: UploadUrlRequest) {
    return this.client.POST('/api/core/providers/{providerId}/items/upload-url', { params: this.provider, body });
  }

  /** An upload URL (200 expected) from a provider that presigns: `url` is there whenever `supported` is true. */
  async uploadTarget(body: UploadUrlRequest): Promise<UploadUrlResponse & { url: string }> {
    const target = await ok(this.presignUpload(body));
    if (!target.supported || !target.url) throw new Error(`no upload URL for ${body.key}: ${JSON.stringify(target)}`);
    return { ...target, url: target.url };
  }

  confirmUpload(key: string) {
    return this.client.POST('/api/core/providers/{providerId}/items/confirm', { params: this.provider, body: { key } });
  }

  presignDownload(key: string, expirationMinutes?: number) {
    return this.client.GET('/api/core/providers/{providerId}/items/download-url', {
      params: { ...this.provider, query: { key, expirationMinutes } },
    });
  }

  /** The content of a file, as bytes (a Range header may ask for part of it). */
  read(key: string, headers: Record<string, string> = {}) {
    return this.client.GET('/api/core/providers/{providerId}/items/content', {
      params: { ...this.provider, query: { key } },
      headers,
      parseAs: 'arrayBuffer',
    });
  }

  /** The content of a file as text (200 expected). */
  async text(key: string): Promise<string> {
    const { data, error, response } = await this.client.GET('/api/core/providers/{providerId}/items/content', {
      params: { ...this.provider, query: { key } },
      parseAs: 'text',
    });
    if (response.status !== 200) throw new Error(`content of ${key} answered ${response.status}: ${JSON.stringify(error)}`);
    return data as string;
  }
}

/** Collects the domain events the stack publishes, from the JetStream stream itself (so they are durable). */
export class EventLog {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly prefix: string,
  ) {}

  static async open(stack: TestStack): Promise<EventLog> {
    const nc = await connect({ servers: stack.infra.natsUrl });
    return new EventLog(nc, `${stack.infra.natsPrefix}_DOMAIN_EVENTS`, stack.infra.natsPrefix);
  }

  /** Every event stored so far, as { subject (without the prefix), payload }. */
  async all(): Promise<Array<{ subject: string; payload: Record<string, unknown>; msgId?: string }>> {
    const jsm = await this.nc.jetstreamManager();
    const info = await jsm.streams.info(this.stream);
    const out: Array<{ subject: string; payload: Record<string, unknown>; msgId?: string }> = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(this.stream, { seq }).catch(() => null);
      if (!m) continue;
      out.push({
        subject: m.subject.slice(this.prefix.length + 1),
        payload: m.json<Record<string, unknown>>(),
        msgId: m.header?.get('Nats-Msg-Id') || undefined,
      });
    }
    return out;
  }

  /** Waits until an event matching `match` is stored (events are published right after the change). */
  async waitFor(match: (e: { subject: string; payload: Record<string, unknown> }) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.all()).find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching event within ${timeoutMs} ms; stored: ${JSON.stringify(await this.all(), null, 1)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): Promise<void> {
    return this.nc.close();
  }
}

/** Polls until `check` returns true (for state that settles asynchronously, such as a cleaned-up staging file). */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await pollUntilDefined(what, async () => ((await check()) ? true : undefined), { timeoutMs });
}

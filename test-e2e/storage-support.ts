/**
 * Shared set-up of the provider-items end-to-end suites: a stack whose PROVIDERS_FILE lists the
 * providers under test, callers in two namespaces, and small HTTP helpers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { TestStack } from '@docintel/testing';

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

export interface Item {
  providerId: string;
  key: string;
  type: 'FILE' | 'FOLDER';
  size?: number | null;
  extension?: string | null;
  mediaType?: string | null;
  lastModified?: number | null;
}

export interface Listing {
  items: Item[];
  nextCursor?: string;
}

/** The items API of one provider, as one caller. */
export class ItemsApi {
  constructor(
    private readonly stack: TestStack,
    readonly providerId: string,
    private readonly token: string | undefined,
  ) {}

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
    const res = await this.list(query);
    expect({ status: res.status, body: res.status === 200 ? '' : await res.text() }).toEqual({ status: 200, body: '' });
    return (await res.json()) as Listing;
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
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

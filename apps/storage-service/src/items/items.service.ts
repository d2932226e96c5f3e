import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import {
  DomainError,
  ErrorCode,
  keyName,
  keyParent,
  keyProblems,
  mediaTypeProblems,
  normalizeDirectoryKey,
  type DownloadUrlRequest,
  type DownloadUrlResponseDto,
  type ItemKeyRequest,
  type KeyKind,
  type ListItemsRequest,
  type ListItemsResponseDto,
  type ProviderItemDto,
  type RenameItemRequest,
  type RpcContext,
  type TransferOp,
  type TransferTarget,
  type TransferTargetRequest,
  type UploadUrlRequest,
  type UploadUrlResponseDto,
} from '@docintel/contracts';
import type { StorageDriver, StoredEntry } from '@docintel/storage';
import { ProvidersService, type ProviderAccess } from '../providers/providers.service';
import { STORAGE_ENV, type StorageEnv } from '../storage.env';
import { parseRange, type ByteRange } from './byte-range';
import { DriverRegistry } from './driver-registry';
import { driverCall } from './driver-errors';
import { ItemEvents } from './item-events';
import { toProviderItem } from './item-mapper';
import { ItemSigning } from './item-signing';
import type { TransferGrant } from './transfer-grant';

/** How long a presigned upload URL stays usable (checked when the PUT starts). */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** Relay grants are used by the gateway right after it asks for them. */
const RELAY_GRANT_SECONDS = 5 * 60;

function requireKey(key: unknown, kind: KeyKind, field = 'key'): void {
  const problems = keyProblems(key, kind, field);
  if (problems.length) throw DomainError.invalid(problems, `${field} ${problems[0].problem}`);
}

/** A new name for an item in the same folder: one path segment. */
function requireName(name: string): void {
  if (name === '') throw DomainError.invalid([{ field: 'newName', problem: 'must not be empty' }], 'newName must not be empty');
  if (name.includes('/')) {
    throw DomainError.invalid(
      [{ field: 'newName', problem: "must be a name, not a path: it must not contain '/'" }],
      "newName must not contain '/'",
    );
  }
  requireKey(name, 'file', 'newName');
}

/** A media type given for a file: no control characters (CR, LF, ...), at most 255 characters. */
function requireMediaType(value: string, field: string): void {
  const problems = mediaTypeProblems(value, field);
  if (problems.length) throw DomainError.invalid(problems, `${field} ${problems[0].problem}`);
}

export interface OutgoingTransfer {
  entry: StoredEntry;
  item: ProviderItemDto;
  /** The part sent, or null for the whole file. */
  range: ByteRange | null;
  body: Readable;
}

/** Provider items: browse, change and move bytes, for any driver, within the caller's namespace. */
@Injectable()
export class ItemsService {
  constructor(
    private readonly providers: ProvidersService,
    private readonly drivers: DriverRegistry,
    private readonly signing: ItemSigning,
    private readonly events: ItemEvents,
    @Inject(STORAGE_ENV) private readonly env: StorageEnv,
  ) {}

  /**
   * The provider as the caller's namespace may use it (404 unknown, 403 not shared) and a driver
   * rooted at that namespace's part of it: every key below is relative to that root, so no
   * operation can reach another namespace's items.
   */
  private async open(ctx: RpcContext, providerId: string): Promise<{ access: ProviderAccess; driver: StorageDriver }> {
    const access = await this.providers.access(ctx, providerId);
    return { access, driver: this.drivers.for(access) };
  }

  async list(ctx: RpcContext, req: ListItemsRequest): Promise<ListItemsResponseDto> {
    // Clients of the reference API list the root as key=/.
    const directory = normalizeDirectoryKey(req.key);
    requireKey(directory, 'directory');
    const { access, driver } = await this.open(ctx, req.providerId);
    const q = req.q ?? '';
    const listing = { directory, q, scope: `${access.provider.id}/${access.namespace}` };
    const startAfter = req.cursor ? this.signing.cursors.decode(req.cursor, listing) : undefined;
    const { entries, more } = await driverCall(() =>
      driver.list(directory, { startAfter, limit: req.limit, nameContains: q || undefined }),
    );
    const items = entries.map((e) => toProviderItem(req.providerId, e));
    if (!more || !entries.length) return { items };
    return { items, nextCursor: this.signing.cursors.encode({ ...listing, after: entries[entries.length - 1].key }) };
  }

  async stat(ctx: RpcContext, req: ItemKeyRequest): Promise<ProviderItemDto> {
    requireKey(req.key, 'item');
    const { driver } = await this.open(ctx, req.providerId);
    const entry = await driverCall(() => driver.stat(req.key));
    if (!entry) throw DomainError.notFound('Item', req.key);
    return toProviderItem(req.providerId, entry);
  }

  async createFolder(ctx: RpcContext, req: ItemKeyRequest): Promise<ProviderItemDto> {
    requireKey(req.key, 'folder');
    const { access, driver } = await this.open(ctx, req.providerId);
    const existed = await driverCall(() => driver.stat(req.key));
    const item = toProviderItem(req.providerId, await driverCall(() => driver.createFolder(req.key)));
    if (!existed) await this.events.publish('itemCreated', item, { requestId: ctx.requestId, namespace: access.namespace });
    return item;
  }

  async delete(ctx: RpcContext, req: ItemKeyRequest): Promise<void> {
    requireKey(req.key, 'item');
    const { access, driver } = await this.open(ctx, req.providerId);
    await driverCall(() => driver.delete(req.key));
    await this.events.publish(
      'itemDeleted',
      { providerId: req.providerId, key: req.key, type: req.key.endsWith('/') ? 'FOLDER' : 'FILE' },
      { requestId: ctx.requestId, namespace: access.namespace },
    );
  }

  async rename(ctx: RpcContext, req: RenameItemRequest): Promise<ProviderItemDto> {
    requireKey(req.key, 'item');
    requireName(req.newName);
    const isFolder = req.key.endsWith('/');
    const target = `${keyParent(req.key)}${req.newName}${isFolder ? '/' : ''}`;
    requireKey(target, 'item', 'newName');
    const { access, driver } = await this.open(ctx, req.providerId);
    if (target === req.key) throw DomainError.conflict(`${keyName(req.key)} already has that name`);
    const item = toProviderItem(req.providerId, await driverCall(() => driver.rename(req.key, target)));
    await this.events.publish('itemRenamed', item, { requestId: ctx.requestId, namespace: access.namespace }, req.key);
    return item;
  }

  async uploadUrl(ctx: RpcContext, req: UploadUrlRequest): Promise<UploadUrlResponseDto> {
    requireKey(req.key, 'file');
    if (req.mediaType !== undefined) requireMediaType(req.mediaType, 'mediaType');
    const { driver } = await this.open(ctx, req.providerId);
    if (req.size !== undefined && req.size > this.env.MAX_UPLOAD_BYTES) throw this.tooLarge();
    const url =
      (await driverCall(() => driver.presignUpload(req.key, UPLOAD_URL_SECONDS, req.mediaType))) ??
      this.publicUrl(
        this.grant(ctx, req.providerId, req.key, 'put', 'presigned', UPLOAD_URL_SECONDS, {
          maxBytes: Math.min(req.size ?? this.env.MAX_UPLOAD_BYTES, this.env.MAX_UPLOAD_BYTES),
          contentType: req.mediaType,
        }),
      );
    return { url, expiresInSeconds: UPLOAD_URL_SECONDS, supported: true };
  }

  /** After a presigned PUT: the file is now known (item.created); 404 while nothing was uploaded. */
  async confirm(ctx: RpcContext, req: ItemKeyRequest): Promise<ProviderItemDto> {
    requireKey(req.key, 'file');
    const { access, driver } = await this.open(ctx, req.providerId);
    const entry = await driverCall(() => driver.stat(req.key));
    if (!entry || entry.type !== 'FILE') {
      throw new DomainError(ErrorCode.NOT_FOUND, `No file was uploaded at ${req.key}; PUT the bytes to the upload URL before confirming`);
    }
    const item = toProviderItem(req.providerId, entry);
    await this.events.publish('itemCreated', item, { requestId: ctx.requestId, namespace: access.namespace });
    return item;
  }

  /**
   * A URL to GET the file from, presigned without looking the file up, as the reference API does
   * (its clients expect 200 for any valid key): using the URL answers 404 when there is no file.
   */
  async downloadUrl(ctx: RpcContext, req: DownloadUrlRequest): Promise<DownloadUrlResponseDto> {
    requireKey(req.key, 'file');
    const { driver } = await this.open(ctx, req.providerId);
    const seconds = req.expirationMinutes * 60;
    const url =
      (await driverCall(() => driver.presignDownload(req.key, seconds))) ??
      this.publicUrl(this.grant(ctx, req.providerId, req.key, 'get', 'presigned', seconds));
    return { url, expiresInSeconds: seconds };
  }

  /** A grant for the gateway to relay a multipart upload (put) or the content endpoint (get) through this service. */
  async transferTarget(ctx: RpcContext, req: TransferTargetRequest): Promise<TransferTarget> {
    requireKey(req.key, 'file');
    if (req.contentType !== undefined) requireMediaType(req.contentType, 'mediaType');
    const { driver } = await this.open(ctx, req.providerId);
    if (req.op === 'get') await this.requireFile(driver, req.key);
    const maxBytes = Math.min(req.maxBytes ?? this.env.MAX_UPLOAD_BYTES, this.env.MAX_UPLOAD_BYTES);
    const grant = this.grant(
      ctx,
      req.providerId,
      req.key,
      req.op,
      'relay',
      RELAY_GRANT_SECONDS,
      req.op === 'put' ? { maxBytes, contentType: req.contentType } : {},
    );
    return { grant, expiresInSeconds: RELAY_GRANT_SECONDS };
  }

  /** Stores the bytes of a PUT under a grant. Nothing is visible unless the body arrives whole and within the limit. */
  async receive(
    token: string,
    body: Readable,
    opts: { contentLength?: number; contentType?: string; requestId: string },
  ): Promise<ProviderItemDto> {
    const { grant, driver } = await this.openGrant(token, 'put', opts.requestId);
    const maxBytes = Math.min(grant.maxBytes ?? this.env.MAX_UPLOAD_BYTES, this.env.MAX_UPLOAD_BYTES);
    if (opts.contentLength !== undefined && opts.contentLength > maxBytes) throw this.tooLarge(maxBytes);
    const entry = await driverCall(() =>
      driver.write(grant.key, body, { size: opts.contentLength, contentType: opts.contentType ?? grant.contentType, maxBytes }),
    );
    const item = toProviderItem(grant.providerId, entry);
    // A client's presigned PUT becomes an event when it confirms; a relayed upload is complete now.
    if (grant.purpose === 'relay')
      await this.events.publish('itemCreated', item, { requestId: opts.requestId, namespace: grant.namespace });
    return item;
  }

  /** The bytes of a file under a grant, or the part a Range header asks for. */
  async send(
    token: string,
    rangeHeader: string | undefined,
    requestId: string,
  ): Promise<OutgoingTransfer | { unsatisfiable: true; size: number }> {
    const { grant, driver } = await this.openGrant(token, 'get', requestId);
    const entry = await this.requireFile(driver, grant.key);
    const size = entry.size ?? 0;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') return { unsatisfiable: true, size };
    const body = await driverCall(() => driver.read(grant.key, range ?? undefined));
    return { entry, item: toProviderItem(grant.providerId, entry), range, body };
  }

  private async openGrant(token: string, op: TransferOp, requestId: string): Promise<{ grant: TransferGrant; driver: StorageDriver }> {
    const grant = this.signing.grants.verify(token);
    if (grant === 'expired') throw DomainError.forbidden('This transfer URL has expired; ask for a new one');
    if (grant === 'invalid') throw DomainError.forbidden('This transfer URL is not valid: it was altered or signed with another key');
    if (grant.op !== op) throw DomainError.forbidden(`This transfer URL does not allow ${op === 'put' ? 'uploads' : 'downloads'}`);
    // The provider must still exist and be shared with the namespace the URL was issued to, and
    // the key is resolved in that namespace's part of it, as when the grant was issued.
    const { driver } = await this.open({ requestId, namespaceName: grant.namespace }, grant.providerId);
    return { grant, driver };
  }

  private async requireFile(driver: StorageDriver, key: string): Promise<StoredEntry> {
    const entry = await driverCall(() => driver.stat(key));
    if (!entry || entry.type !== 'FILE') throw DomainError.notFound('File', key);
    return entry;
  }

  private grant(
    ctx: RpcContext,
    providerId: string,
    key: string,
    op: TransferOp,
    purpose: TransferGrant['purpose'],
    seconds: number,
    extra: Pick<TransferGrant, 'maxBytes' | 'contentType'> = {},
  ): string {
    if (!ctx.namespaceName) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace');
    return this.signing.grants.sign({
      providerId,
      namespace: ctx.namespaceName,
      key,
      op,
      purpose,
      expiresAt: Math.floor(Date.now() / 1000) + seconds,
      ...extra,
    });
  }

  private publicUrl(grant: string): string {
    return `${this.env.PUBLIC_URL.replace(/\/+$/, '')}/api/storage/transfer/${grant}`;
  }

  private tooLarge(limit = this.env.MAX_UPLOAD_BYTES): DomainError {
    return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than the upload limit of ${limit} bytes`);
  }
}

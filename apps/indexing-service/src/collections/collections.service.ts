import { Injectable } from '@nestjs/common';
import {
  DomainError,
  toPage,
  type CollectionDto,
  type CreateCollectionRequest,
  type IndexedFileDto,
  type ListCollectionFilesRequest,
  type ListCollectionsQueryDto,
  type Page,
  type RpcContext,
  type UpdateCollectionRequest,
} from '@docintel/contracts';
import { FilesRepository } from '../files/files.repository';
import { toIndexedFileDto } from '../files/indexed-file.mapper';
import { recordOwner } from '../ownership';
import { requireNamespace, requireUser } from '../tenancy';
import { toCollectionDto } from './collection.mapper';
import { CollectionsRepository, type LinkOutcome } from './collections.repository';

const collectionNotFound = (id: string) => DomainError.notFound('Collection', id);
const fileNotFound = (id: string) => DomainError.notFound('IndexedFile', id);

@Injectable()
export class CollectionsService {
  constructor(
    private readonly collections: CollectionsRepository,
    private readonly files: FilesRepository,
  ) {}

  async list(ctx: RpcContext, query: ListCollectionsQueryDto): Promise<Page<CollectionDto>> {
    const { rows, total } = await this.collections.list(requireNamespace(ctx), {
      page: query.page,
      pageSize: query.pageSize,
      sortBy: query.sortBy ?? 'name',
      sortOrder: query.sortOrder,
      q: query.q,
    });
    return toPage(rows.map(toCollectionDto), total, query.page, query.pageSize);
  }

  async create(ctx: RpcContext, req: CreateCollectionRequest): Promise<CollectionDto> {
    const created = await this.collections.create(requireNamespace(ctx), {
      name: req.name,
      description: req.description ?? null,
      icon: req.icon ?? null,
      owner: recordOwner(requireUser(ctx), req.owner),
    });
    return toCollectionDto(created);
  }

  async get(ctx: RpcContext, id: string): Promise<CollectionDto> {
    const found = await this.collections.findById(requireNamespace(ctx), id);
    if (!found) throw collectionNotFound(id);
    return toCollectionDto(found);
  }

  /**
   * Only the owner may change a collection's name, description or icon (403 for the other users of
   * the namespace, who still see it and may add or remove its files).
   */
  async update(ctx: RpcContext, req: UpdateCollectionRequest): Promise<CollectionDto> {
    const result = await this.collections.updateOwned(requireNamespace(ctx), req.collectionId, requireUser(ctx), {
      name: req.name,
      description: req.description,
      icon: req.icon,
    });
    if (result.outcome === 'missing') throw collectionNotFound(req.collectionId);
    if (result.outcome === 'not-owner') throw DomainError.forbidden(`Only the owner of collection ${req.collectionId} may update it`);
    return toCollectionDto(result.collection);
  }

  /** Only the owner may delete a collection (403 for the other users of the namespace); its files stay. */
  async delete(ctx: RpcContext, id: string): Promise<void> {
    const outcome = await this.collections.deleteOwned(requireNamespace(ctx), id, requireUser(ctx));
    if (outcome === 'missing') throw collectionNotFound(id);
    if (outcome === 'not-owner') throw DomainError.forbidden(`Only the owner of collection ${id} may delete it`);
  }

  async listFiles(ctx: RpcContext, req: ListCollectionFilesRequest): Promise<Page<IndexedFileDto>> {
    const namespace = requireNamespace(ctx);
    if (!(await this.collections.findById(namespace, req.collectionId))) throw collectionNotFound(req.collectionId);
    const { rows, total } = await this.files.list(
      namespace,
      { collectionId: req.collectionId },
      { page: req.page, pageSize: req.pageSize, sortBy: req.sortBy ?? 'name', sortOrder: req.sortOrder, q: req.q },
    );
    return toPage(rows.map(toIndexedFileDto), total, req.page, req.pageSize);
  }

  /** Adds a file to a collection and returns the file; adding it again changes nothing. */
  async addFile(ctx: RpcContext, collectionId: string, fileId: string): Promise<IndexedFileDto> {
    const namespace = requireNamespace(ctx);
    this.check(await this.collections.addFile(namespace, collectionId, fileId), collectionId, fileId);
    const file = await this.files.findById(namespace, fileId);
    if (!file) throw fileNotFound(fileId);
    return toIndexedFileDto(file);
  }

  /** Removes a file from a collection; a file that is not in it is already removed (204 again). */
  async removeFile(ctx: RpcContext, collectionId: string, fileId: string): Promise<void> {
    this.check(await this.collections.removeFile(requireNamespace(ctx), collectionId, fileId), collectionId, fileId);
  }

  private check(outcome: LinkOutcome, collectionId: string, fileId: string): void {
    if (outcome === 'no-collection') throw collectionNotFound(collectionId);
    if (outcome === 'no-file') throw fileNotFound(fileId);
  }
}

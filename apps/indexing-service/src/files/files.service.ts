import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  keyExtension,
  keyName,
  type CreateIndexedFileRequest,
  type IndexedFileDto,
  type ListFilesQueryDto,
  type OntologyDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import type { JsonBytes } from '@docintel/messaging';
import { recordOwner } from '../ownership';
import { requireNamespace, requireUser } from '../tenancy';
import { FilesRepository } from './files.repository';
import { INDEXATION_REQUESTS, type IndexationRequests } from '../indexation/indexation-requests';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { indexedFilePageJson, toIndexedFileDto } from './indexed-file.mapper';
import { OntologiesRepository } from './ontologies.repository';
import { StorageClient } from './storage.client';

const fileNotFound = (id: string) => DomainError.notFound('IndexedFile', id);

@Injectable()
export class FilesService {
  constructor(
    private readonly files: FilesRepository,
    private readonly state: IndexationStateRepository,
    private readonly ontologies: OntologiesRepository,
    private readonly storage: StorageClient,
    @Inject(INDEXATION_REQUESTS) private readonly indexation: IndexationRequests,
  ) {}

  /**
   * The files created from one provider, as the page's JSON (indexedFilePageJson); 404/403 come
   * from storage when the provider is unknown or not shared.
   */
  async list(ctx: RpcContext, query: ListFilesQueryDto): Promise<JsonBytes<Page<IndexedFileDto>>> {
    const namespace = requireNamespace(ctx);
    await this.storage.checkProvider(ctx, query.providerId);
    const { rows, total } = await this.files.listProviderPage(namespace, query.providerId, {
      page: query.page,
      pageSize: query.pageSize,
      sortBy: query.sortProperty ?? 'name',
      sortOrder: query.sortOrder === 'DESC' ? 'desc' : 'asc',
      q: query.q,
      keyPrefix: query.keyPrefix,
    });
    return indexedFilePageJson(rows, total, query.page, query.pageSize);
  }

  /**
   * Creates the IndexedFile of an existing provider item and requests its indexation, in a straight
   * line: validate (the provider and the item, from storage), insert (PENDING: the row is the
   * request, with everything needed to publish it), publish root_node.created. A crash or a NATS
   * failure between insert and publish leaves an unclaimed request, which the sweeper publishes
   * again. Creating it again returns the file the namespace already has, untouched (no new indexation).
   */
  async create(ctx: RpcContext, req: CreateIndexedFileRequest): Promise<IndexedFileDto> {
    const namespace = requireNamespace(ctx);
    const userId = requireUser(ctx);
    const provider = await this.storage.provider(ctx, req.providerId);
    const item = await this.storage.file(ctx, provider.id.id, req.key);
    const { file, created } = await this.files.createOrGet(namespace, {
      namespaceName: ctx.namespaceName ?? null,
      providerId: provider.id.id,
      providerName: provider.name,
      key: item.key,
      name: keyName(item.key),
      extension: keyExtension(item.key),
      size: item.size ?? null,
      mediaType: item.mediaType ?? null,
      owner: recordOwner(userId, req.owner),
    });
    if (created) await this.indexation.requested(file);
    return toIndexedFileDto(file);
  }

  async get(ctx: RpcContext, id: string): Promise<IndexedFileDto> {
    const file = await this.files.findById(requireNamespace(ctx), id);
    if (!file) throw fileNotFound(id);
    return toIndexedFileDto(file);
  }

  /** Removes the IndexedFile with its nodes and collection links; the provider item stays. */
  async delete(ctx: RpcContext, id: string): Promise<void> {
    if (!(await this.files.delete(requireNamespace(ctx), id))) throw fileNotFound(id);
  }

  async reindex(ctx: RpcContext, id: string, reparse: boolean): Promise<void> {
    const file = await this.state.requestIndexation(requireNamespace(ctx), id, { reparse, namespaceName: ctx.namespaceName });
    if (!file) throw fileNotFound(id);
    await this.indexation.requested(file);
  }

  async recomputeOntologies(ctx: RpcContext, id: string): Promise<void> {
    const file = await this.state.requestOntologies(requireNamespace(ctx), id, ctx.namespaceName);
    if (!file) throw fileNotFound(id);
    await this.indexation.ontologiesRequested(file, ctx.requestId);
  }

  async ontologiesOf(ctx: RpcContext, id: string): Promise<OntologyDto[]> {
    const list = await this.ontologies.listForFile(requireNamespace(ctx), id);
    if (!list) throw fileNotFound(id);
    return list;
  }
}

import { Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  entityId,
  toPage,
  type ListProvidersQueryDto,
  type Page,
  type ProviderDto,
  type RpcContext,
} from '@docintel/contracts';
import { namespaceDriverSettings } from './namespace-roots';
import type { ProviderEntity } from './provider.entity';
import { publicConfig } from './provider-config';
import { ProvidersRepository } from './providers.repository';

/** A provider as one namespace may use it: the driver settings point at that namespace's part of it. */
export interface ProviderAccess {
  provider: ProviderEntity;
  namespace: string;
  driverSettings: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toProviderDto(p: ProviderEntity): ProviderDto {
  return {
    id: entityId(p.id, 'PROVIDER'),
    createdTime: p.createdTime,
    owner: { id: 'system' },
    policy: entityId(p.policyId, 'POLICY'),
    name: p.name,
    icon: p.icon ?? '',
    config: publicConfig(p.type, p.settings),
    type: p.type,
    system: p.system,
  };
}

function requireNamespace(ctx: RpcContext): string {
  if (!ctx.namespaceName) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace');
  return ctx.namespaceName;
}

@Injectable()
export class ProvidersService {
  constructor(private readonly providers: ProvidersRepository) {}

  async list(ctx: RpcContext, query: ListProvidersQueryDto): Promise<Page<ProviderDto>> {
    const { rows, total } = await this.providers.list(requireNamespace(ctx), {
      page: query.page,
      pageSize: query.pageSize,
      sortBy: query.sortBy ?? 'name',
      sortOrder: query.sortOrder,
      q: query.q,
    });
    return toPage(rows.map(toProviderDto), total, query.page, query.pageSize);
  }

  /** The provider if the caller's namespace may use it: 404 when it does not exist, 403 when it is not shared. */
  async getVisible(ctx: RpcContext, id: string): Promise<ProviderEntity> {
    const namespace = requireNamespace(ctx);
    const provider = UUID.test(id) ? await this.providers.findById(id) : null;
    if (!provider) throw DomainError.notFound('Provider', id);
    if (!ProvidersRepository.visibleTo(provider, namespace)) {
      throw DomainError.forbidden(`Provider ${id} is not available to namespace ${namespace}`);
    }
    return provider;
  }

  /**
   * The provider and the place of the caller's namespace in it (its root directory or key
   * prefix): what every items operation works on. 404 / 403 as getVisible.
   */
  async access(ctx: RpcContext, id: string): Promise<ProviderAccess> {
    const provider = await this.getVisible(ctx, id);
    const namespace = requireNamespace(ctx);
    return { provider, namespace, driverSettings: namespaceDriverSettings(provider, namespace) };
  }

  async get(ctx: RpcContext, id: string): Promise<ProviderDto> {
    return toProviderDto(await this.getVisible(ctx, id));
  }
}

import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import type { ProviderSortField, SortOrder } from '@docintel/contracts';
import { ProviderEntity } from './provider.entity';
import type { ResolvedProvider } from './provider-config';

const SORT_COLUMNS: Record<ProviderSortField, string> = {
  name: 'lower(p.name)',
  createdTime: 'p.created_time',
  type: 'p.type',
};

export interface ProviderListQuery {
  page: number;
  pageSize: number;
  sortBy: ProviderSortField;
  sortOrder: SortOrder;
  q?: string;
}

/** Providers visible to a namespace. Every read takes the namespace: there is no query path without it. */
@Injectable()
export class ProvidersRepository {
  private readonly repo: Repository<ProviderEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(ProviderEntity);
  }

  /** Makes the table mirror the configured catalogue; ids and creation times of kept providers survive. */
  async replaceCatalog(catalog: ResolvedProvider[]): Promise<void> {
    await this.ds.transaction(async (em) => {
      // Replicas seed at the same moment; the lock makes them take turns.
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('docintel:providers:seed'))`);
      const existing = new Map((await em.find(ProviderEntity)).map((p) => [p.id, p]));
      const now = Date.now();
      for (const p of catalog) {
        const before = existing.get(p.id);
        await em.save(ProviderEntity, {
          ...p,
          namespaceRoots: p.namespaceRoots ?? null,
          system: true,
          policyId: before?.policyId ?? randomUUID(),
          createdTime: before?.createdTime ?? now,
        });
        existing.delete(p.id);
      }
      if (existing.size) await em.delete(ProviderEntity, [...existing.keys()]);
    });
  }

  async list(namespace: string, query: ProviderListQuery): Promise<{ rows: ProviderEntity[]; total: number }> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('(p.namespaces IS NULL OR :namespace = ANY(p.namespaces))', { namespace });
    if (query.q) {
      const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere('p.name ILIKE :pattern', { pattern });
    }
    const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
    qb.orderBy(SORT_COLUMNS[query.sortBy], direction).addOrderBy('p.id', direction);
    const [rows, total] = await qb
      .offset(query.page * query.pageSize)
      .limit(query.pageSize)
      .getManyAndCount();
    return { rows, total };
  }

  /** The provider, whatever namespace may see it: callers decide between 404 and 403. */
  findById(id: string): Promise<ProviderEntity | null> {
    return this.repo.findOneBy({ id });
  }

  static visibleTo(p: ProviderEntity, namespace: string): boolean {
    return p.namespaces === null || p.namespaces.includes(namespace);
  }
}

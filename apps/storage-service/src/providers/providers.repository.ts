import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import type { ProviderSortField, SortOrder } from '@docintel/contracts';
import { ProviderEntity } from './provider.entity';
import type { ResolvedProvider } from './provider-config';

const SORT_KEYS: Record<ProviderSortField, (p: ProviderEntity) => string | number> = {
  name: (p) => p.name.toLowerCase(),
  createdTime: (p) => p.createdTime,
  type: (p) => p.type,
};

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

export interface ProviderListQuery {
  page: number;
  pageSize: number;
  sortBy: ProviderSortField;
  sortOrder: SortOrder;
  q?: string;
}

/**
 * Providers visible to a namespace. Every read takes the namespace: there is no query path without
 * it. The catalogue is the operator's configuration: it changes only when a replica starts and
 * writes it (replaceCatalog), so reads are served from that replica's copy in memory, without a
 * database round trip on the request path.
 */
@Injectable()
export class ProvidersRepository {
  private readonly repo: Repository<ProviderEntity>;
  private catalog: ProviderEntity[] | null = null;
  private byId = new Map<string, ProviderEntity>();

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
      this.remember(await em.find(ProviderEntity));
    });
  }

  private remember(rows: ProviderEntity[]): ProviderEntity[] {
    this.catalog = rows;
    this.byId = new Map(rows.map((p) => [p.id, p]));
    return rows;
  }

  /** The catalogue in memory (read from the database once if this process did not write it). */
  private async all(): Promise<ProviderEntity[]> {
    return this.catalog ?? this.remember(await this.repo.find());
  }

  async list(namespace: string, query: ProviderListQuery): Promise<{ rows: ProviderEntity[]; total: number }> {
    const q = query.q?.toLowerCase();
    const key = SORT_KEYS[query.sortBy];
    const sign = query.sortOrder === 'desc' ? -1 : 1;
    const matching = (await this.all())
      .filter((p) => ProvidersRepository.visibleTo(p, namespace) && (!q || p.name.toLowerCase().includes(q)))
      .sort((a, b) => sign * (compare(key(a), key(b)) || compare(a.id, b.id)));
    const from = query.page * query.pageSize;
    return { rows: matching.slice(from, from + query.pageSize), total: matching.length };
  }

  /** The provider, whatever namespace may see it: callers decide between 404 and 403. */
  async findById(id: string): Promise<ProviderEntity | null> {
    await this.all();
    return this.byId.get(id.toLowerCase()) ?? null; // a UUID in any case, as Postgres compares them
  }

  static visibleTo(p: ProviderEntity, namespace: string): boolean {
    return p.namespaces === null || p.namespaces.includes(namespace);
  }
}

import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { LOGGER, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { GatewayEnv } from '../gateway.env';
import { IDENTITY_CACHE, TOKEN_REVOKED_CHANNEL, type IdentityCache } from './identity.service';

const RECONNECT_MS = 1000;

/**
 * Listens for token revocations (announced by whoever revokes: the CLI, another gateway) and
 * evicts the token from this gateway's cache at once. While the listening connection is down the
 * cache is emptied and bypassed by its own time limit, so a revocation is never missed for longer
 * than AUTH_CACHE_MS.
 */
@Injectable()
export class TokenRevocations implements OnApplicationBootstrap, OnApplicationShutdown {
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    @Inject(IDENTITY_CACHE) private readonly cache: IdentityCache,
    @Inject(SERVICE_ENV) private readonly env: GatewayEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.env.AUTH_CACHE_MS > 0) await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.env.DATABASE_URL });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      this.cache.clear();
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err }, 'token revocation listener lost its connection; reconnecting');
      this.retry = setTimeout(() => void this.listen(), RECONNECT_MS);
    };
    client.on('notification', (n) => n.payload && this.cache.evict(n.payload));
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${TOKEN_REVOKED_CHANNEL}`);
      this.cache.clear(); // anything revoked while not listening is read again
    } catch (err) {
      lost(err);
    }
  }
}

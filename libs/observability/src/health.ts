import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EventLoopMonitor, type EventLoopReport } from './event-loop';
import { Metrics } from './metrics';
import { Public } from './public.decorator';

export type HealthCheck = () => Promise<void>;

export interface HealthReport {
  status: 'ok' | 'error';
  service: string;
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

export interface LivenessReport {
  status: 'ok' | 'error';
  service: string;
  checks: { eventLoop: EventLoopReport };
}

/** Readiness checks that infrastructure modules (NATS, Postgres) register as they come up. */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  private shuttingDown = false;

  constructor(readonly service: string) {}

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** After SIGTERM the instance reports not-ready so that load balancers stop sending traffic. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async readiness(timeoutMs = 2000): Promise<HealthReport> {
    const report: HealthReport = { status: 'ok', service: this.service, checks: {} };
    if (this.shuttingDown) {
      report.status = 'error';
      report.checks.shutdown = { status: 'down', error: 'shutting down' };
    }
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          report.checks[name] = { status: 'up' };
        } catch (err) {
          report.status = 'error';
          report.checks[name] = { status: 'down', error: (err as Error).message };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return report;
  }
}

/** /health (readiness), /health/ready, /health/live and /metrics for every process. */
@ApiExcludeController()
@Public()
@Controller()
export class OperationsController {
  constructor(
    private readonly health: HealthRegistry,
    private readonly metrics: Metrics,
    private readonly eventLoop: EventLoopMonitor,
  ) {}

  /**
   * Liveness is about this process only (dependencies belong to readiness): 503 while its event
   * loop has been stalling longer than the configured delay, so that a supervisor restarts it.
   */
  @Get('health/live')
  async live(@Res() reply: FastifyReply): Promise<void> {
    const eventLoop = this.eventLoop.report();
    const body: LivenessReport = {
      status: eventLoop.status === 'up' ? 'ok' : 'error',
      service: this.health.service,
      checks: { eventLoop },
    };
    await reply.status(eventLoop.status === 'up' ? 200 : 503).send(body);
  }

  @Get(['health', 'health/ready'])
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.readiness();
    await reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }

  @Get('metrics')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    await reply.header('content-type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}

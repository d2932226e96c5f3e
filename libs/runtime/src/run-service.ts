import 'reflect-metadata';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ClassConstructor } from 'class-transformer';
import { loadConfig } from '@docintel/config';
import { MessagingModule } from '@docintel/messaging';
import {
  createLogger,
  HealthRegistry,
  ObservabilityModule,
  PinoNestLogger,
  startTracing,
  type Logger,
  type Tracing,
} from '@docintel/observability';
import { PersistenceModule, type PersistenceOptions } from '@docintel/persistence';
import { installProcessSafetyNet } from './process-safety-net';
import { tracingSettingsOf, type ServiceEnv } from './service-env';

/** What SIGTERM leaves to the export of the last spans, inside the force-exit margin after the drain. */
const TRACE_FLUSH_MS = 3000;

export interface ServiceDefinition<E extends ServiceEnv> {
  service: string;
  env: ClassConstructor<E>;
  /** Builds the root module from the validated configuration. */
  module: (env: E, logger: Logger) => DynamicModule | Type<unknown>;
  /** Extra set-up of the HTTP application before it listens (the gateway's API surface). */
  configure?: (app: NestFastifyApplication, env: E, logger: Logger) => Promise<void> | void;
  fastify?: ConstructorParameters<typeof FastifyAdapter>[0];
}

/** Observability, NATS and Postgres for a service, wired the same way everywhere. */
export function infrastructure(
  service: string,
  env: ServiceEnv,
  logger: Logger,
  persistence: Omit<PersistenceOptions, 'url' | 'poolSize'>,
): DynamicModule[] {
  return [
    ObservabilityModule.forRoot({
      service,
      logger,
      liveness: { maxDelayMs: env.LIVENESS_MAX_EVENT_LOOP_DELAY_MS, windowMs: env.LIVENESS_WINDOW_MS },
    }),
    MessagingModule.forRoot({
      url: env.NATS_URL,
      prefix: env.NATS_PREFIX,
      service,
      rpcTimeoutMs: env.RPC_TIMEOUT_MS,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    }),
    PersistenceModule.forRoot({ ...persistence, url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }),
  ];
}

/**
 * Starts a service: validates its environment, builds the Nest application, serves HTTP
 * (health, metrics and, for the gateway, the API) and shuts down gracefully on SIGTERM/SIGINT.
 * Any start-up failure ends the process with a message saying what to fix.
 */
export async function runService<E extends ServiceEnv>(def: ServiceDefinition<E>): Promise<NestFastifyApplication> {
  const logger = createLogger(def.service);
  installProcessSafetyNet(logger);
  let env: E;
  try {
    env = loadConfig(def.env);
  } catch (err) {
    logger.fatal((err as Error).message);
    process.exit(1);
  }
  logger.level = env.LOG_LEVEL;
  let tracing: Tracing | undefined;
  try {
    // Before Nest starts, so that the first request and message are traced like every other.
    const settings = tracingSettingsOf(env, def.service);
    if (settings) {
      tracing = startTracing(settings, logger);
      logger.info({ url: settings.url, serviceName: settings.serviceName }, 'tracing on: spans are exported over OTLP/HTTP');
    }
  } catch (err) {
    logger.fatal({ err }, `${def.service} failed to start tracing: ${(err as Error).message}`);
    process.exit(1);
  }
  try {
    const app = await NestFactory.create<NestFastifyApplication>(
      def.module(env, logger),
      new FastifyAdapter({ trustProxy: true, ...def.fastify }),
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
    const health = app.get(HealthRegistry);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down');
        health.markShuttingDown();
        const force = setTimeout(() => {
          logger.error('graceful shutdown timed out; exiting');
          process.exit(1);
        }, env.SHUTDOWN_TIMEOUT_MS + 5000);
        force.unref();
        // The spans of the drained work are exported last, within TRACE_FLUSH_MS.
        const flushSpans = () =>
          tracing?.shutdown(TRACE_FLUSH_MS).catch((err: unknown) => logger.warn({ err }, 'could not export the last spans'));
        app
          .close()
          .then(async () => {
            await flushSpans();
            process.exit(0);
          })
          .catch(async (err) => {
            logger.error({ err }, 'error during shutdown');
            await flushSpans();
            process.exit(1);
          });
      });
    }
    await def.configure?.(app, env, logger);
    await app.listen(env.PORT, env.HOST);
    const url = await app.getUrl();
    logger.info({ url }, `${def.service} ready`);
    return app;
  } catch (err) {
    logger.fatal({ err }, `${def.service} failed to start: ${(err as Error).message}`);
    process.exit(1);
  }
}

import 'reflect-metadata';
import { type Provider } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { createLogger, ObservabilityModule } from '@docintel/observability';
import { type TestInfrastructure } from '@docintel/testing';
import { MessagingModule } from '../messaging.module';

export interface MessagingAppOptions {
  /** Handlers and whatever they inject, registered next to the messaging module. */
  providers?: Provider[];
  shutdownTimeoutMs?: number;
}

/**
 * A service's messaging over the test infrastructure's NATS (silent logs, 5 s RPC timeout),
 * compiled but not initialised, for a spec that makes an HTTP application of it.
 */
export function compileMessagingApp(
  infra: Pick<TestInfrastructure, 'natsUrl' | 'natsPrefix'>,
  service: string,
  { providers = [], shutdownTimeoutMs = 5000 }: MessagingAppOptions = {},
): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [
      ObservabilityModule.forRoot({ service, logger: createLogger(service, 'silent') }),
      MessagingModule.forRoot({ url: infra.natsUrl, prefix: infra.natsPrefix, service, rpcTimeoutMs: 5000, shutdownTimeoutMs }),
    ],
    providers,
  }).compile();
}

/** The same, initialised: its handlers subscribed, its client connected. */
export async function startMessagingApp(
  infra: Pick<TestInfrastructure, 'natsUrl' | 'natsPrefix'>,
  service: string,
  options?: MessagingAppOptions,
): Promise<TestingModule> {
  const app = await compileMessagingApp(infra, service, options);
  await app.init();
  return app;
}

import 'reflect-metadata';
import { type Provider, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { HealthPings } from '@docintel/contracts';
import { serviceModule } from '@docintel/runtime';
import { type TestInfrastructure } from '@docintel/testing';
import { JobsEnv } from '../jobs.env';
import { JobsModule } from '../jobs.module';
import { migrations } from '../migrations';
import { READER, RERANKER } from '../reading/reader.token';

/**
 * The environment the orchestrator's integration specs share: the test infrastructure's database
 * and NATS, short heartbeats and staleness so redeliveries happen within a test, and no periodic
 * sweep (specs run the sweeper themselves). `overrides` adds what a spec is about.
 */
export function orchestratorTestEnv(infra: TestInfrastructure, overrides: Partial<JobsEnv> = {}): JobsEnv {
  return Object.assign(new JobsEnv(), {
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.natsPrefix,
    RPC_TIMEOUT_MS: 5000,
    SHUTDOWN_TIMEOUT_MS: 5000,
    JOB_HEARTBEAT_SECONDS: 1,
    JOB_STALE_SECONDS: 3,
    JOB_SWEEP_INTERVAL_SECONDS: 0,
    ...overrides,
  });
}

export interface OrchestratorOptions {
  env: JobsEnv;
  logger: Parameters<typeof serviceModule>[2];
  /** The reader the jobs use (no reranker). */
  reader: unknown;
  /** Stand-ins for the other services (RPC handlers), registered next to the jobs module. */
  standIns: Type[];
}

/** The job orchestrator's service module with a given reader and stand-ins, initialised. */
export async function startOrchestrator({ env, logger, reader, standIns }: OrchestratorOptions): Promise<TestingModule> {
  const engine: Provider[] = [
    { provide: READER, useValue: reader },
    { provide: RERANKER, useValue: null },
  ];
  const app = await Test.createTestingModule({
    imports: [
      serviceModule(
        {
          service: 'job-orchestrator',
          ping: HealthPings.jobs,
          persistence: { schema: 'jobs', entities: [], migrations },
          imports: [JobsModule.forRoot(engine)],
          providers: standIns,
        },
        env,
        logger,
      ),
    ],
  }).compile();
  await app.init();
  return app;
}

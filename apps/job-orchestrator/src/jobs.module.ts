import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { JobSweeper } from './execution/sweeper';
import { UnitWorker } from './execution/unit-worker';
import { JobCreation } from './jobs/job-creation';
import { JobKindRegistry } from './jobs/job-kind';
import { JobsHandler } from './jobs/jobs.handler';
import { JobsRepository } from './jobs/jobs.repository';
import { JobsService } from './jobs/jobs.service';
import { UnitQueue } from './jobs/unit-queue';
import { AgentRepository } from './kinds/agent/agent.repository';
import { JOB_KIND_FOLDERS } from './kinds/registry';
import { MetadataAnswers } from './reading/metadata-answers';
import { PassageRanking } from './reading/passage-ranking';
import { ReaderLifecycle } from './reading/reader.provider';

/**
 * The jobs API (jobs.* calls) and the execution of their units, every kind of kinds/registry.ts
 * with its runner in the JobKindRegistry; `engine` provides READER and RERANKER.
 */
@Module({})
export class JobsModule {
  static forRoot(engine: Provider[]): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        ...engine,
        ReaderLifecycle,
        JobsRepository,
        UnitQueue,
        JobCreation,
        JobsService,
        JobsHandler,
        PassageRanking,
        MetadataAnswers,
        ...JOB_KIND_FOLDERS.flatMap((kind) => [kind.runner, ...kind.providers]),
        JobKindRegistry.provider(JOB_KIND_FOLDERS),
        UnitWorker,
        JobSweeper,
      ],
      exports: [JobsRepository, AgentRepository, UnitWorker, JobSweeper],
    };
  }
}

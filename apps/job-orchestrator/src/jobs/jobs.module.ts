import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ExtractionUnitRunner } from '../execution/extraction-unit';
import { PassageRanking } from '../execution/passage-ranking';
import { QaUnitRunner } from '../execution/qa-unit';
import { MetadataAnswers } from '../execution/metadata-answers';
import { ReaderLifecycle } from '../execution/reader.provider';
import { JobSweeper } from '../execution/sweeper';
import { UnitWorker } from '../execution/unit-worker';
import { bibliographicSourceProvider } from '../find-similar/bibliographic-source.provider';
import { FindSimilarUnitRunner } from '../find-similar/find-similar-unit';
import { MultiDimUnitRunner } from '../multi-dim/multi-dim-unit';
import { AgentJobsService } from '../agent/agent-jobs.service';
import { agentEngineProviders } from '../agent/agent-engine.provider';
import { AgentHandler } from '../agent/agent.handler';
import { AgentRepository } from '../agent/agent.repository';
import { AgentUnitRunner } from '../agent/agent-unit';
import { JobsHandler } from './jobs.handler';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { UnitQueue } from './unit-queue';

/** The jobs API (jobs.* calls) and the execution of their units; `engine` provides READER and RERANKER; FIND_SIMILAR_REMOTE the bibliographic source; AGENT_ENGINE the agent. */
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
        JobsService,
        JobsHandler,
        PassageRanking,
        MetadataAnswers,
        QaUnitRunner,
        ExtractionUnitRunner,
        bibliographicSourceProvider,
        FindSimilarUnitRunner,
        MultiDimUnitRunner,
        ...agentEngineProviders(),
        AgentRepository,
        AgentJobsService,
        AgentHandler,
        AgentUnitRunner,
        UnitWorker,
        JobSweeper,
      ],
      exports: [JobsRepository, AgentRepository, UnitWorker, JobSweeper],
    };
  }
}

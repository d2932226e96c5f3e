import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ExtractionUnitRunner } from '../execution/extraction-unit';
import { QaUnitRunner } from '../execution/qa-unit';
import { JobSweeper } from '../execution/sweeper';
import { UnitWorker } from '../execution/unit-worker';
import { JobsHandler } from './jobs.handler';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { UnitQueue } from './unit-queue';

/** The jobs API (jobs.* calls) and the execution of their units; `reader` provides READER. */
@Module({})
export class JobsModule {
  static forRoot(reader: Provider): DynamicModule {
    return {
      module: JobsModule,
      providers: [reader, JobsRepository, UnitQueue, JobsService, JobsHandler, QaUnitRunner, ExtractionUnitRunner, UnitWorker, JobSweeper],
      exports: [JobsRepository, UnitWorker, JobSweeper],
    };
  }
}

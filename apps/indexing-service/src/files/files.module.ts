import { Module } from '@nestjs/common';
import { IndexationDispatchModule } from '../pipeline/indexation-dispatch.module';
import { FilesHandler } from './files.handler';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { OntologiesRepository } from './ontologies.repository';
import { StorageClient } from './storage.client';

@Module({
  imports: [IndexationDispatchModule],
  providers: [FilesRepository, OntologiesRepository, StorageClient, FilesService, FilesHandler],
  exports: [FilesRepository, OntologiesRepository],
})
export class FilesModule {}

import { Module } from '@nestjs/common';
import { IndexationModule } from '../indexation/indexation.module';
import { FilesHandler } from './files.handler';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { OntologiesRepository } from './ontologies.repository';
import { StorageClient } from './storage.client';

/** The Files API. Indexation requests leave through the INDEXATION_REQUESTS port of IndexationModule. */
@Module({
  imports: [IndexationModule],
  providers: [FilesRepository, OntologiesRepository, StorageClient, FilesService, FilesHandler],
  exports: [FilesRepository, OntologiesRepository],
})
export class FilesModule {}

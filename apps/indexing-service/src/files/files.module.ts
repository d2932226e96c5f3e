import { Module } from '@nestjs/common';
import { FilesHandler } from './files.handler';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { INDEXATION_REQUESTS, RecordOnlyIndexationRequests } from './indexation-requests';
import { OntologiesRepository } from './ontologies.repository';
import { StorageClient } from './storage.client';

@Module({
  providers: [
    FilesRepository,
    OntologiesRepository,
    StorageClient,
    FilesService,
    FilesHandler,
    { provide: INDEXATION_REQUESTS, useClass: RecordOnlyIndexationRequests },
  ],
  exports: [FilesRepository, OntologiesRepository, INDEXATION_REQUESTS],
})
export class FilesModule {}

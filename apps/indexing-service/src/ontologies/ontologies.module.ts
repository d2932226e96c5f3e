import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { OntologiesConsumer } from './ontologies.consumer';

/** indexing_ontologies: ontologies, title, authors and description from the committed tree. */
@Module({
  imports: [PipelineCoreModule, FilesModule],
  providers: [OntologiesConsumer],
})
export class OntologiesModule {}

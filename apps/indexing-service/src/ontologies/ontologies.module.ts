import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { LargeFileOntologiesConsumer, OntologiesConsumer } from './ontologies.consumer';

/** indexing_ontologies: ontologies, title, authors and description from the committed tree. */
@Module({
  imports: [PipelineCoreModule, FilesModule],
  providers: [OntologiesConsumer, LargeFileOntologiesConsumer],
})
export class OntologiesModule {}

import { Module } from '@nestjs/common';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { StorageBytes } from '../pipeline/storage-bytes';
import { CorpusParsingConsumer, LargeFileCorpusParsingConsumer } from './corpus-parsing.consumer';
import { Parsers } from './parsers';

/** corpus_parsing: root_node.created → rule → bytes → parser thread → node tree → commit → announce. */
@Module({
  imports: [PipelineCoreModule],
  providers: [Parsers, StorageBytes, CorpusParsingConsumer, LargeFileCorpusParsingConsumer],
})
export class ParsingModule {}

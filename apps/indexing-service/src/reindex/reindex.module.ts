import { Module } from '@nestjs/common';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { ReindexConsumer } from './reindex.consumer';

/** indexing_reindex: a reindex without reparse re-announces the committed tree. */
@Module({
  imports: [PipelineCoreModule],
  providers: [ReindexConsumer],
})
export class ReindexModule {}

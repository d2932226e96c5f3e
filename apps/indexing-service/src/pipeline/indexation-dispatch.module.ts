import { Module } from '@nestjs/common';
import { INDEXATION_REQUESTS } from '../files/indexation-requests';
import { NodesModule } from '../nodes/nodes.module';
import { IndexationDispatcher } from './indexation-dispatcher';
import { PipelineStateRepository } from './pipeline-state.repository';
import { PipelineStreams } from './pipeline-streams';

/** The pipeline's side of the INDEXATION_REQUESTS port, which the Files API imports. */
@Module({
  imports: [NodesModule],
  providers: [
    PipelineStateRepository,
    PipelineStreams,
    IndexationDispatcher,
    { provide: INDEXATION_REQUESTS, useExisting: IndexationDispatcher },
  ],
  exports: [INDEXATION_REQUESTS, IndexationDispatcher, PipelineStateRepository],
})
export class IndexationDispatchModule {}

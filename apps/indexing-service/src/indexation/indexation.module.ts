import { Module } from '@nestjs/common';
import { IndexationRequestPublisher } from './indexation-request-publisher';
import { INDEXATION_REQUESTS } from './indexation-requests';
import { IndexationStateRepository } from './indexation-state.repository';
import { PipelineStreams } from './pipeline-streams';

/**
 * What the Files API and the pipeline share about indexation: the state of each IndexedFile's
 * indexation (one repository writes it) and the INDEXATION_REQUESTS port that publishes requests.
 * files/ imports this module, never pipeline/.
 */
@Module({
  providers: [
    IndexationStateRepository,
    PipelineStreams,
    IndexationRequestPublisher,
    { provide: INDEXATION_REQUESTS, useExisting: IndexationRequestPublisher },
  ],
  exports: [IndexationStateRepository, IndexationRequestPublisher, INDEXATION_REQUESTS],
})
export class IndexationModule {}

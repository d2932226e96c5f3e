import { CreateRetrievalTables1732600000000 } from './retrieval.migration';
import { RetrievalFileRemoval1732600000001 } from './retrieval-file-removal.migration';
import { RetrievalImpactIndex1764100000000 } from './retrieval-impact-index.migration';

/** Every migration of the PostgreSQL retriever, in order: add them all to the service's data source. */
export const retrievalMigrations = [
  CreateRetrievalTables1732600000000,
  RetrievalFileRemoval1732600000001,
  RetrievalImpactIndex1764100000000,
];

import { CreateNodeEmbeddings1732450000000 } from '@docintel/ai';
import { retrievalMigrations } from '@docintel/retrieval';
import { CreateFilesCollectionsNodes1732300000000 } from './1732300000000-create-files-collections-nodes';
import { IndexationPipeline1732500000000 } from './1732500000000-indexation-pipeline';
import { Passages1732700000000 } from './1732700000000-passages';

export const migrations = [
  CreateFilesCollectionsNodes1732300000000,
  CreateNodeEmbeddings1732450000000,
  IndexationPipeline1732500000000,
  ...retrievalMigrations,
  Passages1732700000000,
];

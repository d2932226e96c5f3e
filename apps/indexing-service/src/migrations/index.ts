import { CreateDocumentEmbeddings1764100000000, CreateNodeEmbeddings1732450000000 } from '@docintel/ai';
import { retrievalMigrations } from '@docintel/retrieval';
import { CreateFilesCollectionsNodes1732300000000 } from './1732300000000-create-files-collections-nodes';
import { IndexationPipeline1732500000000 } from './1732500000000-indexation-pipeline';
import { Passages1732700000000 } from './1732700000000-passages';
import { FileListCounts1764300000000 } from './1764300000000-file-list-counts';
import { InterruptedRuns1764450000000 } from './1764450000000-interrupted-runs';

export const migrations = [
  CreateFilesCollectionsNodes1732300000000,
  CreateNodeEmbeddings1732450000000,
  IndexationPipeline1732500000000,
  ...retrievalMigrations,
  Passages1732700000000,
  CreateDocumentEmbeddings1764100000000,
  FileListCounts1764300000000,
  InterruptedRuns1764450000000,
];

import { CreateFilesCollectionsNodes1732300000000 } from './1732300000000-create-files-collections-nodes';

export const migrations = [CreateFilesCollectionsNodes1732300000000];

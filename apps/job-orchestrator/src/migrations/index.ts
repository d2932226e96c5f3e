import { CreateJobs1732700000000 } from './1732700000000-create-jobs';

export const migrations = [CreateJobs1732700000000];

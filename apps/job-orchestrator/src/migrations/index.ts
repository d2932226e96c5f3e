import { CreateJobs1732700000000 } from './1732700000000-create-jobs';
import { AgentJobs1764000000000 } from './1764000000000-agent';

export const migrations = [CreateJobs1732700000000, AgentJobs1764000000000];

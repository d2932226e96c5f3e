import { CreateJobs1732700000000 } from './1732700000000-create-jobs';
import { AgentJobs1764000000000 } from './1764000000000-agent';
import { NamespaceLimits1765000000000 } from './1765000000000-namespace-limits';

export const migrations = [CreateJobs1732700000000, AgentJobs1764000000000, NamespaceLimits1765000000000];

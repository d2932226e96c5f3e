import type { JobKindFolder } from '../../jobs/job-kind';
import { agentEngineProviders } from './agent-engine.provider';
import { AgentJobsService } from './agent-jobs.service';
import { AgentHandler } from './agent.handler';
import { AgentRepository } from './agent.repository';
import { AgentUnitRunner } from './agent-unit';

/** Agent jobs: one unit, the agent's run, whose tools start QA and extraction jobs and wait for them. */
export const agentKind: JobKindFolder = {
  kind: 'agent',
  noun: 'Agent job',
  runner: AgentUnitRunner,
  providers: [...agentEngineProviders(), AgentRepository, AgentJobsService, AgentHandler],
};

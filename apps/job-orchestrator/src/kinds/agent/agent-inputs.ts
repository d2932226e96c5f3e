import type { AgentJobInputsDto, AgentRole, JobLaunchConfigDto } from '@docintel/contracts';

/** An agent job's request as accepted (AgentJobInputsDto), with its launch config. */
export type AgentInputs = AgentJobInputsDto & { config?: JobLaunchConfigDto; messages?: Array<{ role: AgentRole; content: string }> };

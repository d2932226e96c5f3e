import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RulesClient } from '@docintel/rules';
import { IndexationModule } from '../indexation/indexation.module';
import { NodesModule } from '../nodes/nodes.module';
import { DurableWorkers } from './durable-workers';
import { RunSettlement } from './run-settlement';
import { StepProgressRecorder } from './step-progress';
import { TreeBatchSteps } from './tree-batch-step';
import { TreeEvents } from './tree-events';

/**
 * What every pipeline step module imports: the indexation state and the node store, the rules
 * client, the announcement of a committed tree, the step progress records, the course a step over
 * a tree's batches takes (TreeBatchSteps), the end of a run waiting for them (RunSettlement), and
 * the one starter of every @DurableWorker in the application.
 */
@Module({
  imports: [DiscoveryModule, IndexationModule, NodesModule],
  providers: [RulesClient, TreeEvents, StepProgressRecorder, TreeBatchSteps, RunSettlement, DurableWorkers],
  exports: [IndexationModule, NodesModule, RulesClient, TreeEvents, StepProgressRecorder, TreeBatchSteps, RunSettlement],
})
export class PipelineCoreModule {}

import { Injectable } from '@nestjs/common';
import type { CreateQaJobRequest, JobDto, RpcContext } from '@docintel/contracts';
import { JobCreation, shorten, type CreateOptions } from '../../jobs/job-creation';
import { qaInputs } from './qa-inputs';

/** Creating QA jobs: one unit per question, run once the questions it chains on are answered. */
@Injectable()
export class QaJobs {
  constructor(private readonly creation: JobCreation) {}

  create(ctx: RpcContext, req: CreateQaJobRequest, opts: CreateOptions = {}): Promise<JobDto> {
    const { inputs, dependsOn } = qaInputs(req);
    return this.creation.create(ctx, 'qa', req, opts, async () => ({
      name: req.name ?? shorten(inputs.questions[0].question),
      inputs,
      files: await this.creation.filesOf(ctx, req),
      units: inputs.questions.map((q, i) => ({ unit: i, label: `question ${q.id}`, fileId: null, dependsOn: dependsOn[i] })),
    }));
  }
}

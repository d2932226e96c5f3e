import { Injectable } from '@nestjs/common';
import type { CreateExtractionJobRequest, JobDto, RpcContext } from '@docintel/contracts';
import { JobCreation, shorten, unitPerFile, type CreateOptions } from '../../jobs/job-creation';
import { extractionInputs } from './extraction-inputs';

/** Creating extraction jobs: one unit per file, each reading every meta. */
@Injectable()
export class ExtractionJobs {
  constructor(private readonly creation: JobCreation) {}

  create(ctx: RpcContext, req: CreateExtractionJobRequest, opts: CreateOptions = {}): Promise<JobDto> {
    const inputs = extractionInputs(req);
    return this.creation.create(ctx, 'extraction', req, opts, async () => {
      const files = await this.creation.filesOf(ctx, req);
      return {
        name: req.name ?? shorten(`Extraction: ${inputs.metas.map((m) => m.meta).join(', ')}`),
        inputs,
        files,
        units: unitPerFile(files),
      };
    });
  }
}

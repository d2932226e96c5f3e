import { Injectable } from '@nestjs/common';
import type { CreateMultiDimJobRequest, JobDto, MultiDimRowsPart, RpcContext } from '@docintel/contracts';
import { JobCreation, shorten, unitPerFile } from '../../jobs/job-creation';
import { JobsRepository } from '../../jobs/jobs.repository';
import { JobsService, PART_BYTES, UNITS_PER_PART } from '../../jobs/jobs.service';
import { entityExtractionOf } from './entity-extraction';
import { multiDimExtractionInputs, type MultiDimExtractionInputs } from './multi-dim-extraction-inputs';
import type { FileEntityRows } from './multi-dim-extraction-unit';

/** Creating multi-dimensional extraction jobs and reading their rows. */
@Injectable()
export class MultiDimExtractionJobs {
  constructor(
    private readonly creation: JobCreation,
    private readonly jobs: JobsService,
    private readonly repo: JobsRepository,
  ) {}

  /** One unit per file: its tables (or its text) give its rows; rows of all files are merged when read. */
  create(ctx: RpcContext, req: CreateMultiDimJobRequest): Promise<JobDto> {
    const inputs = multiDimExtractionInputs(req);
    return this.creation.create(ctx, 'multi-dim-extraction', req, {}, async () => {
      const files = await this.creation.filesOf(ctx, req);
      return { name: req.name ?? shorten(`Rows: ${inputs.schema.name}`), inputs, files, units: unitPerFile(files) };
    });
  }

  /**
   * The rows of a multi-dimensional extraction job, merged on row keys across its files (partial
   * while it runs), from `fromRow` on: as many as fit in PART_BYTES.
   */
  async rows(ctx: RpcContext, jobId: string, fromRow = 0): Promise<MultiDimRowsPart> {
    const job = await this.jobs.job<MultiDimExtractionInputs>(ctx, 'multi-dim-extraction', jobId);
    const total = await this.repo.unitCount(job.id);
    const files: FileEntityRows[] = [];
    for (let from = 0; from < total; from += UNITS_PER_PART) {
      for (const u of await this.repo.unitResults<FileEntityRows>(job.id, from, UNITS_PER_PART)) files.push(...u.results);
    }
    const { rows, referenceIds: _all, ...head } = entityExtractionOf(job.id, job.inputs, files);
    const part: MultiDimRowsPart = { head, rows: [], nextRow: null };
    let bytes = Buffer.byteLength(JSON.stringify(head));
    for (let i = fromRow; i < rows.length; i++) {
      const size = Buffer.byteLength(JSON.stringify(rows[i]));
      if (part.rows.length && bytes + size > PART_BYTES) return { ...part, nextRow: i };
      part.rows.push(rows[i]);
      bytes += size;
    }
    return part;
  }
}

import { JOB_TASK_TYPES, entityId, type AnnotationDto, type JobDto } from '@docintel/contracts';
import type { JobRecord, UnitCounts } from './job-records';

/** The Job as the API shows it; executionTime in seconds, so far while it runs. */
export function toJobDto(job: JobRecord, counts?: UnitCounts): JobDto {
  const end = job.finishedAt ?? (job.startedAt ? new Date() : null);
  const dto: JobDto = {
    jobId: job.id,
    status: job.status,
    taskType: JOB_TASK_TYPES[job.kind],
    createdTime: job.createdAt.getTime(),
    name: job.name,
    archived: job.archived,
    modifiedTime: job.modifiedAt.getTime(),
  };
  if (job.startedAt && end) dto.executionTime = Math.max(0, end.getTime() - job.startedAt.getTime()) / 1000;
  if (job.errorMessage) dto.errorMessage = job.errorMessage;
  if (counts) dto.progress = counts;
  return dto;
}

export function toAnnotationDto(job: JobRecord, a: { id: string; createdAt: Date; data: AnnotationDto['data'] }): AnnotationDto {
  const time = a.createdAt.getTime();
  return {
    id: entityId(a.id, 'ANNOTATION'),
    createdTime: time,
    modifiedTime: time,
    owner: { id: job.userId },
    lastModifier: { id: job.userId },
    space: entityId(job.id, 'JOB'),
    type: 'DOCUMENT_STATEMENT',
    status: 'VALID',
    data: a.data,
  };
}

import type { ReaderPassage } from '@docintel/answering';
import { DomainError, ErrorCode, type PassageDto, type RpcContext } from '@docintel/contracts';
import type { JobRecord } from '../jobs/job-records';

/** Who a unit's calls to other services act for: the job's owner, in the job's namespace. */
export const jobContext = (job: JobRecord, requestId: string): RpcContext => ({
  requestId,
  namespaceId: job.namespaceId,
  userId: job.userId,
});

export const toReaderPassage = (p: PassageDto): ReaderPassage => ({
  id: p.id,
  fileId: p.fileId,
  fileName: p.fileName,
  nodeType: p.nodeType,
  text: p.text,
  headings: p.headings,
  score: p.score,
});

/** Errors another attempt may not meet: a service away or slow. Others are the unit's own answer. */
export function isTransient(err: unknown): boolean {
  if (err instanceof DomainError) return err.code === ErrorCode.SERVICE_UNAVAILABLE || err.code === ErrorCode.TIMEOUT;
  const code = (err as { code?: unknown }).code;
  // PostgreSQL connection failures and the like: the database, not the unit, is at fault.
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|57P01|57P03|08\w\w\w)$/.test(code);
}

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

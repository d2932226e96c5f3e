import { createHash } from 'node:crypto';
import { DomainError, ErrorCode, type JobKind } from '@docintel/contracts';

/** Thrown inside a creating transaction when a concurrent request with the same key won; the caller answers with that request's job. */
export class IdempotencyKeyTaken extends Error {}

/**
 * The request as hashed for its Idempotency-Key: the kind of job and every field but the key,
 * object keys sorted (a client may serialise its body in any key order). The kind is in the hash,
 * so a key used for one kind of job is refused for another, even with the same body.
 */
export function createRequestHash(kind: JobKind, req: object): string {
  const { idempotencyKey: _key, ...body } = req as { idempotencyKey?: string };
  return createHash('sha256').update(canonicalJson({ kind, body })).digest('hex');
}

/** JSON with object keys sorted and undefined members left out: one text per value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** 409: the key was used for another request (another body, or another kind of job). */
export function keyReused(key: string, jobId: string): DomainError {
  return new DomainError(ErrorCode.CONFLICT, `Idempotency-Key ${key} was already used with a different request`, [
    { field: 'Idempotency-Key', problem: `was used for job ${jobId} with another body; use a new key for a new request` },
  ]);
}

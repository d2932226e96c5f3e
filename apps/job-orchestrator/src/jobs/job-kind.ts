import type { FactoryProvider, Provider, Type } from '@nestjs/common';
import { JOB_KINDS, type JobKind } from '@docintel/contracts';
import type { JobQueueName } from '../jobs.env';
import type { JobRecord, UnitRecord } from './job-records';
import type { UnitOutcome } from './jobs.repository';

/**
 * What runs the units of one job kind, typed by the kind's inputs `I` and result `R`. Every kind's
 * folder (kinds/<kind>/) has one; kinds/registry.ts lists them.
 */
export interface JobKindRunner<I = unknown, R = unknown> {
  run(job: JobRecord<I>, unit: UnitRecord<R>, requestId: string, signal: AbortSignal): Promise<UnitOutcome<R>>;
  /** The unit's results when it could not be answered: the reason in each, where the answer would be. */
  failedResults(job: JobRecord<I>, unit: UnitRecord<R>, reason: string): R[];
}

/** A kind's folder as the module composes it: its name, its runner and the providers beside it (create use case, RPC handler, …). */
export interface JobKindFolder {
  kind: JobKind;
  /** What a job of this kind is called where it was not found ("QA job"). */
  noun: string;
  runner: Type<JobKindRunner>;
  providers: Provider[];
}

/** A kind as the registry holds it: its folder with the runner the module built. */
export type RegisteredKind = Omit<JobKindFolder, 'runner' | 'providers'> & { runner: JobKindRunner };

/** The queue a kind's units run from: an agent run waits for its sub-jobs, so it must not hold their slots. */
export const queueOf = (kind: JobKind): JobQueueName => (kind === 'agent' ? 'agent' : 'units');

/**
 * The runner of every job kind. It refuses to be built (so the service does not start) when a
 * kind of JOB_KINDS has no runner or two, as a job stored with that kind could never be run.
 */
export class JobKindRegistry {
  private readonly kinds = new Map<JobKind, RegisteredKind>();

  constructor(kinds: readonly RegisteredKind[]) {
    for (const kind of kinds) {
      if (this.kinds.has(kind.kind)) throw new Error(`Job kind ${kind.kind} has two runners; kinds/registry.ts lists each kind once`);
      this.kinds.set(kind.kind, kind);
    }
    const missing = JOB_KINDS.filter((kind) => !this.kinds.has(kind));
    if (missing.length) throw new Error(`Job kind(s) ${missing.join(', ')} have no runner; add the kind's folder to kinds/registry.ts`);
  }

  /** Providers for the registry of these folders' runners. */
  static provider(folders: readonly JobKindFolder[]): FactoryProvider<JobKindRegistry> {
    return {
      provide: JobKindRegistry,
      useFactory: (...runners: JobKindRunner[]) =>
        new JobKindRegistry(folders.map(({ kind, noun }, i) => ({ kind, noun, runner: runners[i] }))),
      inject: folders.map((f) => f.runner),
    };
  }

  runnerOf(kind: JobKind): JobKindRunner {
    return this.registered(kind).runner;
  }

  nounOf(kind: JobKind): string {
    return this.registered(kind).noun;
  }

  private registered(kind: JobKind): RegisteredKind {
    const registered = this.kinds.get(kind);
    if (!registered) throw new Error(`Job kind ${kind} has no runner`); // unreachable: the constructor checked every kind
    return registered;
  }

  /** The outcome of a unit that could not be answered, with the reason in each of its results. */
  failedOutcome(job: JobRecord, unit: UnitRecord, reason: string): UnitOutcome {
    const results = this.runnerOf(job.kind).failedResults(job, unit, reason);
    return { status: 'FAILED', results, answered: results.length, annotations: [], error: reason };
  }
}

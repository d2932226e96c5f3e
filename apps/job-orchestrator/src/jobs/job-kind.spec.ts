import { JOB_KINDS, type JobKind } from '@docintel/contracts';
import { JobKindRegistry, type JobKindRunner, type RegisteredKind } from './job-kind';
import type { JobRecord, UnitRecord } from './job-records';

const runner = (kind: JobKind): JobKindRunner<unknown, string> => ({
  run: () => Promise.resolve({ status: 'DONE', results: ['answer'], answered: 1, annotations: [] }),
  failedResults: (_job, _unit, reason) => [`${kind}: ${reason}`],
});
const registered = (kind: JobKind): RegisteredKind => ({ kind, noun: `${kind} job`, runner: runner(kind) });

describe('JobKindRegistry', () => {
  it('refuses to be built when a kind has no runner, naming the kind', () => {
    expect(() => new JobKindRegistry(JOB_KINDS.filter((k) => k !== 'agent').map(registered))).toThrow(/agent have no runner/);
  });

  it('refuses to be built when a kind has two runners', () => {
    expect(() => new JobKindRegistry([...JOB_KINDS.map(registered), registered('qa')])).toThrow(/qa has two runners/);
  });

  it("gives each kind its runner, and a failed unit that kind's results with the reason", () => {
    const registry = new JobKindRegistry(JOB_KINDS.map(registered));
    expect(registry.nounOf('find-similar')).toBe('find-similar job');
    const job = { kind: 'extraction' } as JobRecord;
    expect(registry.failedOutcome(job, {} as UnitRecord, 'gone')).toEqual({
      status: 'FAILED',
      results: ['extraction: gone'],
      answered: 1,
      annotations: [],
      error: 'gone',
    });
  });
});

import 'reflect-metadata';
import { loadConfig } from '@docintel/config';
import { JobsEnv } from './jobs.env';

describe('JobsEnv JOB_QUEUES', () => {
  it('takes both queues by default, so one Deployment runs every kind of job', () => {
    expect(loadConfig(JobsEnv, {}).JOB_QUEUES).toEqual(['units', 'agent']);
  });

  it('reads a comma list, spaces allowed, so agent runs can be scaled apart from job units', () => {
    expect(loadConfig(JobsEnv, { JOB_QUEUES: 'agent' }).JOB_QUEUES).toEqual(['agent']);
    expect(loadConfig(JobsEnv, { JOB_QUEUES: ' units , agent ' }).JOB_QUEUES).toEqual(['units', 'agent']);
  });

  it('refuses an unknown queue, a repeated one and an empty list, naming the variable', () => {
    expect(() => loadConfig(JobsEnv, { JOB_QUEUES: 'units,agents' })).toThrow(/JOB_QUEUES.*comma list of units, agent/);
    expect(() => loadConfig(JobsEnv, { JOB_QUEUES: 'agent,agent' })).toThrow(/JOB_QUEUES.*twice/);
    expect(() => loadConfig(JobsEnv, { JOB_QUEUES: ' , ' })).toThrow(/JOB_QUEUES.*at least one/);
  });
});

describe('JobsEnv ANSWER_MIN_CONFIDENCE', () => {
  it('is unset by default, so the built-in engine keeps its calibrated threshold', () => {
    expect(loadConfig(JobsEnv, {}).ANSWER_MIN_CONFIDENCE).toBeUndefined();
  });

  it('reads a share from 0 to 1 and refuses anything else, naming the variable', () => {
    expect(loadConfig(JobsEnv, { ANSWER_MIN_CONFIDENCE: '0.65' }).ANSWER_MIN_CONFIDENCE).toBe(0.65);
    expect(() => loadConfig(JobsEnv, { ANSWER_MIN_CONFIDENCE: '1.5' })).toThrow(/ANSWER_MIN_CONFIDENCE.*from 0 to 1/);
    expect(() => loadConfig(JobsEnv, { ANSWER_MIN_CONFIDENCE: 'high' })).toThrow(/ANSWER_MIN_CONFIDENCE.*from 0 to 1/);
  });
});

describe('JobsEnv namespace limits', () => {
  it('have defaults that refuse a flood of jobs and share the workers among namespaces', () => {
    const env = loadConfig(JobsEnv, {});
    expect([
      env.JOB_NAMESPACE_MAX_OPEN_JOBS,
      env.JOB_NAMESPACE_MAX_OPEN_UNITS,
      env.JOB_NAMESPACE_ACTIVE_UNITS,
      env.JOB_LIMIT_RETRY_AFTER_SECONDS,
    ]).toEqual([100, 5000, 4, 10]);
  });

  it('read integers and refuse the rest, naming the variable', () => {
    expect(loadConfig(JobsEnv, { JOB_NAMESPACE_MAX_OPEN_JOBS: '20', JOB_NAMESPACE_ACTIVE_UNITS: '8' })).toMatchObject({
      JOB_NAMESPACE_MAX_OPEN_JOBS: 20,
      JOB_NAMESPACE_ACTIVE_UNITS: 8,
    });
    expect(() => loadConfig(JobsEnv, { JOB_NAMESPACE_MAX_OPEN_JOBS: '0' })).toThrow(/JOB_NAMESPACE_MAX_OPEN_JOBS/);
    expect(() => loadConfig(JobsEnv, { JOB_NAMESPACE_ACTIVE_UNITS: 'many' })).toThrow(/JOB_NAMESPACE_ACTIVE_UNITS/);
    expect(() => loadConfig(JobsEnv, { JOB_LIMIT_RETRY_AFTER_SECONDS: '0' })).toThrow(/JOB_LIMIT_RETRY_AFTER_SECONDS/);
  });

  it('refuse an open-units limit below the largest single job (1000 files), which could never run', () => {
    expect(() => loadConfig(JobsEnv, { JOB_NAMESPACE_MAX_OPEN_UNITS: '999' })).toThrow(/JOB_NAMESPACE_MAX_OPEN_UNITS.*less than 1000/);
  });
});

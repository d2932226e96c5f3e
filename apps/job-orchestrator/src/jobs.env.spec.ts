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

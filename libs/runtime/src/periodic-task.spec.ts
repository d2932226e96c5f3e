import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs every interval, skips ticks while a run is going, reports failures and keeps going', async () => {
    const errors: unknown[] = [];
    let release!: () => void;
    let runs = 0;
    const task = new PeriodicTask(
      () => {
        runs++;
        if (runs === 1) return new Promise<void>((r) => (release = r));
        if (runs === 2) return Promise.reject(new Error('boom'));
        return Promise.resolve();
      },
      (err) => errors.push(err),
    );
    task.start(1000);
    jest.advanceTimersByTime(1000);
    expect(runs).toBe(1);
    jest.advanceTimersByTime(3000); // the first run is still going
    expect(runs).toBe(1);
    release();
    await Promise.resolve();
    await Promise.resolve();
    jest.advanceTimersByTime(1000);
    await Promise.resolve();
    await Promise.resolve();
    expect(runs).toBe(2);
    expect(errors).toEqual([new Error('boom')]);
    jest.advanceTimersByTime(1000);
    expect(runs).toBe(3);
    await task.stop();
    jest.advanceTimersByTime(5000);
    expect(runs).toBe(3);
  });
});

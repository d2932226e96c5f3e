import { setTimeout as sleep } from 'node:timers/promises';
import { EventLoopMonitor } from './event-loop';

/** Keeps the event loop busy, as a synchronous step that never yields would. */
function blockLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
}

describe('EventLoopMonitor', () => {
  let monitor: EventLoopMonitor;
  // Windows are turned by hand (rotate()), never by the clock of the test.
  beforeEach(() => {
    monitor = new EventLoopMonitor({ maxDelayMs: 500, windowMs: 3_600_000, resolutionMs: 10 });
  });
  afterEach(() => monitor.stop());

  it('is up while the loop runs freely', async () => {
    await sleep(50);
    expect(monitor.report()).toEqual(expect.objectContaining({ status: 'up', maxDelayMs: 500, windowMs: 3_600_000 }));
  });

  it('is down after the loop was blocked longer than the limit, for that window and the next', async () => {
    await sleep(50); // the histogram has sampled once: a stall is measured from its last sample
    blockLoop(1500);
    // The histogram learns of the stall when the loop runs again.
    await sleep(30);
    const stalled = monitor.report();
    expect(stalled.status).toBe('down');
    expect(stalled.delayMs).toBeGreaterThanOrEqual(1400);

    monitor.rotate();
    expect(monitor.report().status).toBe('down');

    monitor.rotate();
    await sleep(30);
    expect(monitor.report().status).toBe('up');
  });
});

import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface EventLoopLivenessOptions {
  /** Liveness fails while a delay longer than this was seen in the current or the previous window. */
  maxDelayMs: number;
  /** How long a stall is remembered: the report covers the current window and the one before it. */
  windowMs: number;
  /** Sampling period of the delay histogram (perf_hooks resolution). */
  resolutionMs?: number;
}

export interface EventLoopReport {
  status: 'up' | 'down';
  /** The longest event-loop delay of the current and the previous window, in milliseconds. */
  delayMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const DEFAULT_EVENT_LOOP_LIVENESS: EventLoopLivenessOptions = { maxDelayMs: 5000, windowMs: 5000 };

/**
 * Measures how late the event loop runs (perf_hooks.monitorEventLoopDelay). A process whose loop
 * is blocked still holds its port open, so "the port answers" says nothing; a loop that keeps
 * stalling for seconds answers nobody in time. The histogram only learns of a stall once the loop
 * runs again, which is why a stall is remembered for one more window: the next probe sees it.
 * A loop blocked for good cannot answer the probe at all; the prober's timeout covers that case.
 */
export class EventLoopMonitor {
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private previousWindowMaxMs = 0;

  constructor(readonly options: EventLoopLivenessOptions = DEFAULT_EVENT_LOOP_LIVENESS) {
    this.histogram = monitorEventLoopDelay({ resolution: options.resolutionMs ?? 20 });
    this.histogram.enable();
    this.timer = setInterval(() => this.rotate(), options.windowMs);
    // Measuring must never keep a process alive that is otherwise done.
    this.timer.unref();
  }

  /** Starts a new window; the one that ends is remembered as the previous one. */
  rotate(): void {
    this.previousWindowMaxMs = this.currentMaxMs();
    this.histogram.reset();
  }

  report(): EventLoopReport {
    const delayMs = Math.round(Math.max(this.previousWindowMaxMs, this.currentMaxMs()));
    return {
      status: delayMs > this.options.maxDelayMs ? 'down' : 'up',
      delayMs,
      maxDelayMs: this.options.maxDelayMs,
      windowMs: this.options.windowMs,
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private currentMaxMs(): number {
    // An empty histogram reports a max of 0 (no sample yet in this window).
    return this.histogram.count > 0 ? this.histogram.max / 1e6 : 0;
  }
}

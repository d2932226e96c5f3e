/**
 * Runs a task every `intervalMs`, never two at once: a tick that finds the last run still going is
 * skipped. A failed run is handed to `onError` and the next tick runs again. The timer does not
 * keep the process alive; stop() waits for the run in progress (for SIGTERM drains).
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.task()
        .catch(this.onError)
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

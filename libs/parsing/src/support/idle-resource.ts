/**
 * A costly resource (an OCR engine: a thread and hundreds of MiB) opened on first use and ended once
 * nobody has held it for `idleMs`, so that a parsing thread holds it only while documents need it.
 * Work runs inside hold(), which keeps the resource from ending until it settles; get() opens it
 * (once) for the holder. With `idleMs` 0 it ends as soon as the last holder is done.
 */
export class IdleResource<T> {
  private resource: Promise<T> | undefined;
  private holders = 0;
  private timer: NodeJS.Timeout | undefined;
  private opened = 0;
  private ended = 0;

  constructor(
    private readonly open: () => Promise<T>,
    private readonly end: (resource: T) => Promise<unknown>,
    private idleMs: number,
  ) {}

  /** How long the resource outlives its last holder; applies from the next release. */
  setIdleMs(ms: number): void {
    this.idleMs = ms;
  }

  /** Whether the resource is open (or opening), and how many times it was opened and ended. */
  get stats(): { open: boolean; opened: number; ended: number } {
    return { open: this.resource !== undefined, opened: this.opened, ended: this.ended };
  }

  /** Runs `work` holding the resource: it is not ended before `work` settles. */
  async hold<R>(work: () => Promise<R>): Promise<R> {
    this.holders++;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      return await work();
    } finally {
      this.holders--;
      if (this.holders === 0) this.scheduleEnd();
    }
  }

  /** The resource, opened on the first call; only inside hold(). */
  get(): Promise<T> {
    if (this.holders === 0) throw new Error('IdleResource.get() outside hold()');
    if (!this.resource) {
      this.opened++;
      const opening = this.open();
      // A failed opening is not kept: the next holder tries again.
      opening.catch(() => {
        if (this.resource === opening) this.resource = undefined;
      });
      this.resource = opening;
    }
    return this.resource;
  }

  /** Ends the resource now, whoever holds it. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.release();
  }

  private scheduleEnd(): void {
    if (!this.resource) return;
    if (this.idleMs <= 0) {
      void this.release();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.holders === 0) void this.release();
    }, this.idleMs);
    // An idle resource must not keep its process (or thread) alive.
    this.timer.unref();
  }

  private async release(): Promise<void> {
    const resource = this.resource;
    this.resource = undefined;
    if (!resource) return;
    let value: T;
    try {
      value = await resource;
    } catch {
      return; // it never opened: nothing to end
    }
    this.ended++;
    await this.end(value).catch(() => undefined);
  }
}

/** Thrown to a waiter when the gate closes (shutdown): its message goes back to the queue. */
export class WorkGateClosedError extends Error {
  constructor() {
    super('the indexing service is stopping; the work goes back to the queue');
  }
}

/**
 * Lets `slots` pieces of work run at once and the others wait their turn, first come first served.
 * A waiter's `whileWaiting` runs every `everyMs` (a delivery's progress, so its ack deadline does
 * not pass while it waits).
 */
export class WorkGate {
  private active = 0;
  private readonly waiting: Array<{ admit: () => void; refuse: (err: Error) => void }> = [];
  private closed = false;

  constructor(private readonly slots: number) {}

  async run<T>(work: () => Promise<T>, whileWaiting: () => void, everyMs: number): Promise<T> {
    if (this.closed) throw new WorkGateClosedError();
    if (this.active < this.slots) {
      this.active++;
    } else {
      const timer = setInterval(whileWaiting, everyMs);
      try {
        await new Promise<void>((admit, refuse) => this.waiting.push({ admit, refuse }));
      } finally {
        clearInterval(timer);
      }
    }
    try {
      return await work();
    } finally {
      // The slot passes to the next waiter as it is, so nobody can overtake the queue.
      const next = this.waiting.shift();
      if (next) next.admit();
      else this.active--;
    }
  }

  /** Waiters now and later are refused; work already admitted finishes. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.refuse(new WorkGateClosedError());
  }

  get queued(): number {
    return this.waiting.length;
  }
}

import { Counter, Gauge, type Registry } from 'prom-client';

/** What JetStream says about one durable consumer (consumer info), read at scrape time. */
export interface ConsumerFigures {
  /** Messages in the stream that the consumer has not delivered yet (num_pending). */
  pending: number;
  /** Messages delivered and not acknowledged yet (num_ack_pending). */
  ackPending: number;
  /** Messages delivered more than once and not acknowledged yet (num_redelivered). */
  redelivered: number;
}

export type ConsumerFiguresReader = () => Promise<ConsumerFigures>;

export interface QueueMetricsOptions {
  /** How long one consumer's figures may take before the scrape goes on without them. */
  timeoutMs?: number;
  /** How long read figures are served again (several scrapers, or gauges of one scrape, share one read). */
  maxAgeMs?: number;
}

interface Watched {
  stream: string;
  consumer: string;
  read: ConsumerFiguresReader;
  watchers: number;
}

interface Row extends ConsumerFigures {
  stream: string;
  consumer: string;
}

type QueueLabels = 'stream' | 'consumer';

/**
 * Queue depth gauges of the durable consumers a process consumes, read from JetStream when
 * Prometheus scrapes. A slow or unreachable NATS must never hang /metrics: every read is cut
 * off after `timeoutMs`, a consumer that does not answer is left out of that scrape and counted in
 * docintel_queue_info_failures_total, and a read is reused for `maxAgeMs`.
 */
export class QueueMetrics {
  private readonly watched = new Map<string, Watched>();
  private cache?: { at: number; rows: Row[] };
  private reading?: Promise<Row[]>;
  private readonly timeoutMs: number;
  private readonly maxAgeMs: number;
  readonly failures: Counter<QueueLabels>;

  constructor(registry: Registry, opts: QueueMetricsOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 1000;
    this.maxAgeMs = opts.maxAgeMs ?? 1000;
    const figures = this;
    const gauge = (name: string, help: string, pick: (r: Row) => number) => {
      return new Gauge<QueueLabels>({
        name,
        help,
        labelNames: ['stream', 'consumer'],
        registers: [registry],
        async collect() {
          const rows = await figures.rows();
          this.reset();
          for (const r of rows) this.set({ stream: r.stream, consumer: r.consumer }, pick(r));
        },
      });
    };
    gauge('docintel_queue_pending_messages', 'Messages of a durable consumer not delivered yet (JetStream num_pending)', (r) => r.pending);
    gauge(
      'docintel_queue_ack_pending_messages',
      'Messages of a durable consumer delivered and not acknowledged yet (JetStream num_ack_pending)',
      (r) => r.ackPending,
    );
    gauge(
      'docintel_queue_redelivered_messages',
      'Messages of a durable consumer delivered more than once and not acknowledged yet (JetStream num_redelivered)',
      (r) => r.redelivered,
    );
    this.failures = new Counter({
      name: 'docintel_queue_info_failures_total',
      help: 'Scrapes that could not read a durable consumer from JetStream in time (its queue gauges were left out)',
      labelNames: ['stream', 'consumer'],
      registers: [registry],
      // Waits for the scrape's read, so that its failures are in the same scrape.
      async collect() {
        await figures.rows();
      },
    });
  }

  /**
   * Reports the consumer's figures from now on; the returned function stops (several consumers of
   * one durable in a process count once, until the last of them stops).
   */
  watch(stream: string, consumer: string, read: ConsumerFiguresReader): () => void {
    const key = `${stream}\u0000${consumer}`;
    const entry = this.watched.get(key) ?? { stream, consumer, read, watchers: 0 };
    entry.watchers++;
    this.watched.set(key, entry);
    this.cache = undefined;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--entry.watchers === 0) this.watched.delete(key);
      this.cache = undefined;
    };
  }

  /** The figures of every watched consumer that answered, at most maxAgeMs old; one read at a time. */
  rows(): Promise<Row[]> {
    if (this.cache && Date.now() - this.cache.at < this.maxAgeMs) return Promise.resolve(this.cache.rows);
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<Row[]> {
    const entries = [...this.watched.values()];
    const results = await Promise.allSettled(entries.map((e) => this.withTimeout(e)));
    const rows: Row[] = [];
    results.forEach((r, i) => {
      const { stream, consumer } = entries[i];
      if (r.status === 'fulfilled') rows.push({ stream, consumer, ...r.value });
      else this.failures.inc({ stream, consumer });
    });
    this.cache = { at: Date.now(), rows };
    return rows;
  }

  private withTimeout(entry: Watched): Promise<ConsumerFigures> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
    });
    // A read that loses the race settles later unobserved by us, but Promise.race has handled it.
    return Promise.race([Promise.resolve().then(entry.read), timeout]).finally(() => clearTimeout(timer));
  }
}

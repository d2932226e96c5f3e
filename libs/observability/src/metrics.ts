import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QueueMetrics, type ConsumerFiguresReader, type QueueMetricsOptions } from './queue-metrics';

/** Request latencies: a millisecond to ten seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Units of work (a job unit, a pipeline step, a parse): ten milliseconds to half an hour. */
const WORK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

/**
 * Job figures (job-orchestrator). Labels are bounded sets: the job kind (qa, extraction,
 * multi-dim-extraction, find-similar, agent), its final status, a unit's outcome, the queue.
 */
export class JobMetrics {
  readonly created: Counter<'kind'>;
  readonly finished: Counter<'kind' | 'status'>;
  readonly unitDuration: Histogram<'kind' | 'outcome'>;
  readonly unitsInProgress: Gauge<'queue'>;

  constructor(registry: Registry) {
    this.created = new Counter({
      name: 'docintel_jobs_created_total',
      help: 'Jobs created, by kind',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.finished = new Counter({
      name: 'docintel_jobs_finished_total',
      help: 'Jobs ended, by kind and final status (SUCCESS, COMPLETED, FAILED, ABORTED)',
      labelNames: ['kind', 'status'],
      registers: [registry],
    });
    this.unitDuration = new Histogram({
      name: 'docintel_job_unit_duration_seconds',
      help: 'Job units run by this process, from claim to end, by kind and outcome (completed, failed, retried, claim_lost)',
      labelNames: ['kind', 'outcome'],
      buckets: WORK_BUCKETS,
      registers: [registry],
    });
    this.unitsInProgress = new Gauge({
      name: 'docintel_job_units_in_progress',
      help: 'Job units this process is running now, by queue (units, agent)',
      labelNames: ['queue'],
      registers: [registry],
    });
  }
}

/** Indexation pipeline figures (indexing-service). Steps are the pipeline's durable names. */
export class IndexingMetrics {
  readonly stepsFinished: Counter<'step' | 'status'>;
  readonly stepDuration: Histogram<'step'>;
  readonly parseDuration: Histogram<'format' | 'outcome'>;

  constructor(registry: Registry) {
    this.stepsFinished = new Counter({
      name: 'docintel_indexing_steps_finished_total',
      help: 'Pipeline step deliveries handled, by step and status (ok: over and acknowledged; retried: failed, redelivered later; failed: failed its last delivery, dead-lettered)',
      labelNames: ['step', 'status'],
      registers: [registry],
    });
    this.stepDuration = new Histogram({
      name: 'docintel_indexing_step_duration_seconds',
      help: 'Time a pipeline step spent on one delivery, by step',
      labelNames: ['step'],
      buckets: WORK_BUCKETS,
      registers: [registry],
    });
    this.parseDuration = new Histogram({
      name: 'docintel_parse_duration_seconds',
      help: 'Documents parsed (in a parser thread), by detected format family and outcome (ok, rejected by the parser, error)',
      labelNames: ['format', 'outcome'],
      buckets: WORK_BUCKETS,
      registers: [registry],
    });
  }
}

/**
 * One Prometheus registry per process, labelled with the service name. Request figures exist in
 * every process; job, indexing and queue figures are registered by the first code that uses them,
 * so that a process only shows the families it can fill.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly rpcDuration: Histogram<'subject' | 'outcome'>;
  readonly rpcClientDuration: Histogram<'subject' | 'outcome'>;
  readonly eventsPublished: Counter<'subject'>;
  private jobFigures?: JobMetrics;
  private indexingFigures?: IndexingMetrics;
  private queueFigures?: QueueMetrics;

  constructor(
    readonly service: string,
    private readonly queueOptions: QueueMetricsOptions = {},
  ) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'docintel_http_request_duration_seconds',
      help: 'HTTP requests served, by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers: [this.registry],
    });
    this.rpcDuration = new Histogram({
      name: 'docintel_rpc_handler_duration_seconds',
      help: 'NATS requests handled, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets: REQUEST_BUCKETS,
      registers: [this.registry],
    });
    this.rpcClientDuration = new Histogram({
      name: 'docintel_rpc_client_duration_seconds',
      help: 'NATS requests sent, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets: REQUEST_BUCKETS,
      registers: [this.registry],
    });
    this.eventsPublished = new Counter({
      name: 'docintel_events_published_total',
      help: 'JetStream events published, by subject',
      labelNames: ['subject'],
      registers: [this.registry],
    });
  }

  get jobs(): JobMetrics {
    return (this.jobFigures ??= new JobMetrics(this.registry));
  }

  get indexing(): IndexingMetrics {
    return (this.indexingFigures ??= new IndexingMetrics(this.registry));
  }

  get queues(): QueueMetrics {
    return (this.queueFigures ??= new QueueMetrics(this.registry, this.queueOptions));
  }

  /** Reports a durable consumer's queue depth at every scrape until the returned function is called. */
  watchConsumer(stream: string, consumer: string, read: ConsumerFiguresReader): () => void {
    return this.queues.watch(stream, consumer, read);
  }
}

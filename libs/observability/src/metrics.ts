import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process, labelled with the service name. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly rpcDuration: Histogram<'subject' | 'outcome'>;
  readonly rpcClientDuration: Histogram<'subject' | 'outcome'>;
  readonly eventsPublished: Counter<'subject'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    this.httpDuration = new Histogram({
      name: 'docintel_http_request_duration_seconds',
      help: 'HTTP requests served, by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets,
      registers: [this.registry],
    });
    this.rpcDuration = new Histogram({
      name: 'docintel_rpc_handler_duration_seconds',
      help: 'NATS requests handled, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets,
      registers: [this.registry],
    });
    this.rpcClientDuration = new Histogram({
      name: 'docintel_rpc_client_duration_seconds',
      help: 'NATS requests sent, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets,
      registers: [this.registry],
    });
    this.eventsPublished = new Counter({
      name: 'docintel_events_published_total',
      help: 'JetStream events published, by subject',
      labelNames: ['subject'],
      registers: [this.registry],
    });
  }
}

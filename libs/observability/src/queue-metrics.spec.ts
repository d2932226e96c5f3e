import { Metrics } from './metrics';

/** The samples of one metric family in a scrape, by their label text. */
function samples(scrape: string, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    out[line.slice(name.length + 1, line.indexOf('}'))] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}

const figures = (pending: number, ackPending = 0, redelivered = 0) => ({ pending, ackPending, redelivered });

describe('queue gauges', () => {
  it('reads every watched durable once per scrape, and reuses a read for maxAgeMs', async () => {
    const metrics = new Metrics('svc', { timeoutMs: 500, maxAgeMs: 60_000 });
    const reads = { a: 0, b: 0 };
    metrics.watchConsumer('WORK', 'job_units', async () => {
      reads.a++;
      return figures(3, 1, 1);
    });
    metrics.watchConsumer('HOOKS', 'corpus_parsing', async () => {
      reads.b++;
      return figures(0, 2);
    });
    const scrape = await metrics.registry.metrics();
    expect(samples(scrape, 'docintel_queue_pending_messages')).toEqual({
      'stream="WORK",consumer="job_units",service="svc"': 3,
      'stream="HOOKS",consumer="corpus_parsing",service="svc"': 0,
    });
    expect(samples(scrape, 'docintel_queue_ack_pending_messages')['stream="HOOKS",consumer="corpus_parsing",service="svc"']).toBe(2);
    expect(samples(scrape, 'docintel_queue_redelivered_messages')['stream="WORK",consumer="job_units",service="svc"']).toBe(1);
    expect(reads).toEqual({ a: 1, b: 1 }); // three gauges, one read
    await metrics.registry.metrics();
    expect(reads).toEqual({ a: 1, b: 1 });
  });

  it('serves the rest of /metrics in time when a durable does not answer, and counts the failures', async () => {
    const metrics = new Metrics('svc', { timeoutMs: 100, maxAgeMs: 0 });
    metrics.httpDuration.observe({ method: 'GET', route: '/x', status: '200' }, 0.01);
    metrics.watchConsumer('WORK', 'stuck', () => new Promise(() => undefined));
    metrics.watchConsumer('WORK', 'broken', async () => {
      throw new Error('consumer not found');
    });
    metrics.watchConsumer('WORK', 'throws', () => {
      throw new Error('not even a promise');
    });
    metrics.watchConsumer('WORK', 'fine', async () => figures(5));
    const started = Date.now();
    const scrape = await metrics.registry.metrics();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(samples(scrape, 'docintel_queue_pending_messages')).toEqual({ 'stream="WORK",consumer="fine",service="svc"': 5 });
    expect(samples(scrape, 'docintel_http_request_duration_seconds_count')).toEqual({
      'service="svc",method="GET",route="/x",status="200"': 1,
    });
    expect(samples(scrape, 'docintel_queue_info_failures_total')).toEqual({
      'stream="WORK",consumer="stuck",service="svc"': 1,
      'stream="WORK",consumer="broken",service="svc"': 1,
      'stream="WORK",consumer="throws",service="svc"': 1,
    });
  });

  it('reports a durable while any of its consumers in the process runs', async () => {
    const metrics = new Metrics('svc', { maxAgeMs: 0 });
    const read = async () => figures(1);
    const first = metrics.watchConsumer('WORK', 'job_units', read);
    const second = metrics.watchConsumer('WORK', 'job_units', read);
    expect(Object.keys(samples(await metrics.registry.metrics(), 'docintel_queue_pending_messages'))).toHaveLength(1);
    first();
    first(); // stopping twice counts once
    expect(Object.keys(samples(await metrics.registry.metrics(), 'docintel_queue_pending_messages'))).toHaveLength(1);
    second();
    expect(samples(await metrics.registry.metrics(), 'docintel_queue_pending_messages')).toEqual({});
  });

  it('registers job and indexing families only in a process that uses them', async () => {
    const gateway = new Metrics('gateway');
    expect(await gateway.registry.metrics()).not.toContain('docintel_jobs_finished_total');
    expect(await gateway.registry.metrics()).not.toContain('docintel_queue_pending_messages');
    const jobs = new Metrics('jobs');
    expect(jobs.jobs).toBe(jobs.jobs);
    jobs.jobs.finished.inc({ kind: 'qa', status: 'SUCCESS' });
    expect(await jobs.registry.metrics()).toContain('docintel_jobs_finished_total{kind="qa",status="SUCCESS",service="jobs"} 1');
  });
});

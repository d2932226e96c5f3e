import { FilesCreate, Hooks, ProvidersList, QaJobsCreate, RulesEvaluate, Streams, Work } from '@docintel/contracts';
import { APPS, OtlpReceiver, OtlpSpanKind, TestStack, type AppName, type ReceivedSpan } from '@docintel/testing';
import { jobEnded, ok } from './support/client';
import { Indexer } from './support/indexing';

/** The value of a sample in a Prometheus text scrape (every label given must match), or undefined. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.includes('{') ? line.slice(line.indexOf('{') + 1, line.indexOf('}')) : '';
    if (wanted.every((w) => labelText.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/**
 * Operations of the whole product with tracing on: every service exports spans over OTLP/HTTP to a
 * local receiver, one request's spans share a trace across NATS request/reply and across JetStream
 * (the indexation pipeline and job units continue the trace of the request that caused them), log
 * lines carry the trace id, and every service's /metrics holds its figures.
 */
describe('observability of a started stack', () => {
  let receiver: OtlpReceiver;
  let stack: TestStack;
  let alice: Indexer;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    stack = await TestStack.start({
      label: 'observability',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Export every 200 ms instead of every 5 s, so the test does not wait for spans.
        OTEL_BSP_SCHEDULE_DELAY: '200',
        LOG_LEVEL: 'info',
      },
    });
    alice = await Indexer.forNamespace(stack, 'observability', 'alice@observability.test');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
  });

  const span = (label: string, match: (s: ReceivedSpan) => boolean) => receiver.waitForSpan(match, 20_000, label);

  it('traces one request from the gateway to the storage service: server span, client span, handler span', async () => {
    const res = await stack.request('/api/core/providers', { token: alice.token, headers: { 'x-request-id': 'obs-providers-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('obs-providers-1');

    const server = await span(
      'the gateway request span',
      (s) => s.service === 'api-gateway' && s.kind === OtlpSpanKind.server && s.attributes['docintel.request_id'] === 'obs-providers-1',
    );
    expect(server).toMatchObject({ service: 'api-gateway', name: 'GET /api/core/providers', parentSpanId: '', statusCode: 0 });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/core/providers',
      'http.response.status_code': 200,
    });

    const client = await span('the gateway client span', (s) => s.traceId === server.traceId && s.kind === OtlpSpanKind.client);
    expect(client).toMatchObject({ service: 'api-gateway', name: ProvidersList.subject, parentSpanId: server.spanId });
    const handler = await span(
      'the storage handler span',
      (s) => s.traceId === server.traceId && s.kind === OtlpSpanKind.server && s.service === 'storage-service',
    );
    expect(handler).toMatchObject({ name: ProvidersList.subject, parentSpanId: client.spanId, statusCode: 0 });
    expect(handler.attributes['docintel.request_id']).toBe('obs-providers-1');

    // Every export was OTLP/HTTP JSON.
    expect(receiver.requests.every((r) => r.contentType?.startsWith('application/json'))).toBe(true);
  });

  it('does not trace probes and scrapes, and marks nothing failed for a 4xx', async () => {
    await fetch(`${stack.baseUrl}/health/ready`);
    const denied = await stack.request('/api/core/providers', { headers: { 'x-request-id': 'obs-denied-1' } });
    expect(denied.status).toBe(401);
    const server = await span(
      'the 401 request span',
      (s) => s.service === 'api-gateway' && s.attributes['docintel.request_id'] === 'obs-denied-1',
    );
    expect(server).toMatchObject({ statusCode: 0, attributes: expect.objectContaining({ 'http.response.status_code': 401 }) });
    expect(receiver.spans.some((s) => String(s.name).includes('/health'))).toBe(false);
  });

  it('continues the trace through JetStream: the indexation pipeline and a job unit are in the trace of their request', async () => {
    const file = await alice.index('notes/observability.txt', {
      bytes: 'Quarterly report.\n\nThe revenue of Acme was 42 million euros in 2024.\n\nThe report was written by Ada.\n',
    });
    const indexed = await alice.stepsSettled(file.id.id, ['passage_indexing', 'node_embedding'], 120_000);
    expect(indexed.lastIndexationInfos.status).toBe('SUCCESS');

    // POST /api/core/files → indexing.files.create → publish root_node.created → corpus_parsing, which asks the rules engine.
    const post = await span('the POST /files span', (s) => s.name === 'POST /api/core/files' && s.service === 'api-gateway');
    const inTrace = (s: ReceivedSpan) => s.traceId === post.traceId;
    const create = await span(
      'the files.create handler span',
      (s) => inTrace(s) && s.kind === OtlpSpanKind.server && s.name === FilesCreate.subject,
    );
    expect(create.service).toBe('indexing-service');
    const publish = await span(
      'the root_node.created publish span',
      (s) => inTrace(s) && s.name === `publish ${Hooks.rootNodeCreated.subject}`,
    );
    expect(publish).toMatchObject({ service: 'indexing-service', kind: OtlpSpanKind.producer });
    const parse = await span(
      'the corpus_parsing process span',
      (s) => inTrace(s) && s.kind === OtlpSpanKind.consumer && s.attributes['messaging.consumer.group.name'] === 'corpus_parsing',
    );
    expect(parse).toMatchObject({ name: `process ${Hooks.rootNodeCreated.subject}`, parentSpanId: publish.spanId, statusCode: 0 });
    const rules = await span(
      'the rules engine span',
      (s) => inTrace(s) && s.service === 'rules-engine' && s.name === RulesEvaluate.subject,
    );
    expect(rules.kind).toBe(OtlpSpanKind.server);
    // The steps after parsing are in it too: node.batch.created, published by corpus_parsing.
    const batch = await span(
      'a node.batch.created process span',
      (s) => inTrace(s) && s.name === `process ${Hooks.nodeBatchCreated.subject}`,
    );
    expect(batch.kind).toBe(OtlpSpanKind.consumer);
    // A log line written inside the pipeline names the trace.
    const logged = stack
      .logsOf('indexing-service')
      .split('\n')
      .find((l) => l.includes('"indexation SUCCESS"') && l.includes(file.id.id));
    expect(logged && JSON.parse(logged)).toMatchObject({ traceId: post.traceId, requestId: expect.any(String) });

    // A QA job: its unit runs in job-orchestrator from the WORK stream, in the trace of POST /qa/jobs.
    const created = await ok(
      alice.api.POST('/api/core/qa/jobs', {
        body: { files: { fileIds: [file.id.id] }, questions: [{ question: 'What was the revenue of Acme?' }] },
      }),
      200,
    );
    await jobEnded(alice.api, 'qa', created.jobId);
    const jobPost = await span('the POST /qa/jobs span', (s) => s.name === 'POST /api/core/qa/jobs' && s.service === 'api-gateway');
    const jobCreate = await span(
      'the qa create handler span',
      (s) => s.traceId === jobPost.traceId && s.name === QaJobsCreate.subject && s.kind === OtlpSpanKind.server,
    );
    expect(jobCreate.service).toBe('job-orchestrator');
    const unitPublish = await span(
      'the unit publish span',
      (s) => s.traceId === jobPost.traceId && s.name === `publish ${Work.jobsUnit.subject}`,
    );
    const unit = await span('the unit process span', (s) => s.traceId === jobPost.traceId && s.name === `process ${Work.jobsUnit.subject}`);
    expect(unit).toMatchObject({
      service: 'job-orchestrator',
      kind: OtlpSpanKind.consumer,
      parentSpanId: unitPublish.spanId,
      statusCode: 0,
    });
    // The unit's passage search is a child of the unit, answered by indexing-service.
    const search = await span(
      'the passage search from the unit',
      (s) => s.traceId === jobPost.traceId && s.kind === OtlpSpanKind.client && s.parentSpanId === unit.spanId,
    );
    const answered = await span('its handler span', (s) => s.parentSpanId === search.spanId);
    expect(answered.service).toBe('indexing-service');
  });

  it('serves /metrics on every service, with its request, queue, indexing and job figures', async () => {
    const scrapes = {} as Record<AppName, string>;
    for (const name of APPS) {
      const app = stack.apps.get(name);
      const res = await fetch(`http://127.0.0.1:${app?.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      scrapes[name] = await res.text();
      // Process figures everywhere, labelled with the service.
      for (const metric of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
        expect(sample(scrapes[name], metric, { service: name })).toBeGreaterThanOrEqual(0);
      }
    }
    const prefix = stack.infra.natsPrefix;
    const gateway = scrapes['api-gateway'];
    expect(
      sample(gateway, 'docintel_http_request_duration_seconds_count', { method: 'GET', route: '/api/core/providers', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(gateway, 'docintel_rpc_client_duration_seconds_count', { subject: ProvidersList.subject, outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(gateway).not.toContain('docintel_queue_pending_messages');

    expect(
      sample(scrapes['storage-service'], 'docintel_rpc_handler_duration_seconds_count', { subject: ProvidersList.subject, outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(scrapes['rules-engine'], 'docintel_rpc_handler_duration_seconds_count', { subject: RulesEvaluate.subject, outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);

    const indexing = scrapes['indexing-service'];
    const hooks = `${prefix}_${Streams.hooks.name}`;
    for (const durable of ['corpus_parsing', 'node_embedding', 'passage_indexing', 'formula_augmentation']) {
      const labels = { stream: hooks, consumer: `${prefix}_${durable}` };
      expect(sample(indexing, 'docintel_queue_pending_messages', labels)).toBe(0);
      expect(sample(indexing, 'docintel_queue_ack_pending_messages', labels)).toBeGreaterThanOrEqual(0);
      expect(sample(indexing, 'docintel_queue_redelivered_messages', labels)).toBeGreaterThanOrEqual(0);
    }
    expect(sample(indexing, 'docintel_indexing_steps_finished_total', { step: 'corpus_parsing', status: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(indexing, 'docintel_indexing_step_duration_seconds_count', { step: 'passage_indexing' })).toBeGreaterThanOrEqual(1);
    expect(sample(indexing, 'docintel_parse_duration_seconds_count', { format: 'text', outcome: 'ok' })).toBe(1);

    const jobs = scrapes['job-orchestrator'];
    const work = `${prefix}_${Streams.work.name}`;
    for (const durable of ['job_units', 'agent_runs']) {
      expect(sample(jobs, 'docintel_queue_pending_messages', { stream: work, consumer: `${prefix}_${durable}` })).toBe(0);
    }
    expect(sample(jobs, 'docintel_jobs_created_total', { kind: 'qa' })).toBe(1);
    expect(sample(jobs, 'docintel_jobs_finished_total', { kind: 'qa', status: 'SUCCESS' })).toBe(1);
    expect(sample(jobs, 'docintel_job_unit_duration_seconds_count', { kind: 'qa', outcome: 'completed' })).toBe(1);
    expect(sample(jobs, 'docintel_job_units_in_progress', { queue: 'units' })).toBe(0);
    expect(sample(jobs, 'docintel_queue_info_failures_total')).toBeUndefined();
  });

  it('exports the last spans on SIGTERM, within the shutdown budget', async () => {
    // A gateway replica that would export only once a minute: its spans can only arrive by the shutdown flush.
    const replica = await stack.startApp('api-gateway', { OTEL_BSP_SCHEDULE_DELAY: '60000' });
    const res = await fetch(`http://127.0.0.1:${replica.port}/api/core/providers`, {
      headers: { authorization: `Bearer ${alice.token}`, 'x-request-id': 'obs-last-words' },
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.spans.some((s) => s.attributes['docintel.request_id'] === 'obs-last-words' && s.service === 'api-gateway')).toBe(false);
    expect(await stack.stopApp(`api-gateway#${replica.port}`)).toBe(0);
    const server = await span(
      'the replica request span',
      (s) => s.service === 'api-gateway' && s.attributes['docintel.request_id'] === 'obs-last-words',
    );
    expect(server.name).toBe('GET /api/core/providers');
  });
});

import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import pino from 'pino';
import { createLogger } from './logger';
import { runWithRequestId } from './request-context';
import { currentTraceIds, otlpTracesUrl, runInSpan, startSpan, startTracing, tracingEnabled, type Tracing } from './tracing';

describe('otlpTracesUrl', () => {
  it('appends /v1/traces to the base endpoint, and takes the traces endpoint as it is', () => {
    expect(otlpTracesUrl('http://collector:4318', undefined)).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesUrl('http://collector:4318/', undefined)).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesUrl('http://collector:4318', 'http://other:4318/custom')).toBe('http://other:4318/custom');
    expect(otlpTracesUrl(undefined, undefined)).toBeUndefined();
  });
});

describe('tracing off', () => {
  it('starts no spans and runs the work as it is', async () => {
    expect(tracingEnabled()).toBe(false);
    const span = startSpan('anything', { kind: 'client' });
    expect(span).toBeUndefined();
    await expect(runInSpan(span, async () => 42)).resolves.toBe(42);
    expect(currentTraceIds()).toBeUndefined();
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;

  beforeAll(() => {
    tracing = startTracing({ serviceName: 'unit-test', url: 'http://127.0.0.1:9/v1/traces', exporter });
  });
  afterAll(async () => {
    await tracing.shutdown();
  });

  it('refuses a second provider in the process', () => {
    expect(() => startTracing({ serviceName: 'again', url: 'http://127.0.0.1:9/v1/traces', exporter })).toThrow(/already started/);
  });

  it('nests spans started inside run(), and names the service', async () => {
    const outer = startSpan('outer', { kind: 'server', attributes: { 'http.route': '/x' } });
    await outer?.run(async () => {
      await new Promise((r) => setImmediate(r));
      startSpan('inner', { kind: 'internal' })?.end();
    });
    outer?.end();
    await tracing.flush();
    const [inner, root] = exporter.getFinishedSpans();
    expect(inner.name).toBe('inner');
    expect(inner.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(root.resource.attributes['service.name']).toBe('unit-test');
    expect(root.attributes['http.route']).toBe('/x');
  });

  it('continues a remote parent from headers, and starts a new trace without one', () => {
    const parent = startSpan('caller', { kind: 'client' });
    const headers = new Map<string, string>();
    parent?.inject((k, v) => headers.set(k, v));
    expect(headers.get('traceparent')).toBe(`00-${parent?.traceId}-${parent?.spanId}-01`);
    const child = startSpan('handler', { kind: 'server', remoteParent: (k) => headers.get(k) });
    expect(child?.traceId).toBe(parent?.traceId);
    const orphan = startSpan('handler', { kind: 'server', remoteParent: () => undefined });
    expect(orphan?.traceId).not.toBe(parent?.traceId);
    for (const s of [child, orphan, parent]) s?.end();
  });

  it('binds a span entered by a hook to the rest of the async flow, and puts its ids in log lines', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const base = createLogger('test', 'info');
    const logger = pino({ mixin: (base as unknown as { [k: symbol]: () => object })[pino.symbols.mixinSym] }, sink);
    let span: ReturnType<typeof startSpan>;
    await runWithRequestId('req-1', async () => {
      // As the gateway's onRequest hook does: no callback to wrap, the context is entered.
      await new Promise<void>((resolve) => {
        setImmediate(() => {
          span = startSpan('GET /x', { kind: 'server' });
          span?.enter();
          setImmediate(() => {
            logger.info('inside');
            resolve();
          });
        });
      });
    });
    span?.end();
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'req-1', traceId: span?.traceId, spanId: span?.spanId });
    expect(lines[1].traceId).toBeUndefined();
  });

  it('marks a failed span as an error with its exception', async () => {
    await tracing.flush();
    exporter.reset();
    const span = startSpan('work', { kind: 'consumer' });
    span?.fail('boom', new Error('boom'));
    span?.end();
    span?.end(); // ending twice is harmless
    await tracing.flush();
    const [done] = exporter.getFinishedSpans();
    expect(done.status).toEqual({ code: 2, message: 'boom' });
    expect(done.events.map((e) => e.name)).toEqual(['exception']);
  });
});

describe('tracing after shutdown', () => {
  it('is off again, and can be started anew', async () => {
    expect(tracingEnabled()).toBe(false);
    expect(startSpan('x', { kind: 'internal' })).toBeUndefined();
    const again = startTracing({ serviceName: 'again', url: 'http://127.0.0.1:9/v1/traces', exporter: new InMemorySpanExporter() });
    expect(startSpan('x', { kind: 'internal' })).toBeDefined();
    await again.shutdown();
    expect(tracingEnabled()).toBe(false);
  });
});

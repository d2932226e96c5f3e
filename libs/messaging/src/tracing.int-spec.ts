import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { IsInt, IsString } from 'class-validator';
import { headers as natsHeaders, JSONCodec, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { ErrorCode, event, rpc, RpcHeaders, Streams, type NoPayload, DomainError } from '@docintel/contracts';
import { currentTraceIds, runWithRequestId, startSpan, startTracing, tracingEnabled, type Tracing } from '@docintel/observability';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { eventually, OtlpSpanKind, startTestInfrastructure, type ReceivedSpan, type TestInfrastructure } from '@docintel/testing';
import { JetStream, type RunningConsumer } from './jetstream';
import { startMessagingApp } from './testing/messaging-app';
import { NATS_CONNECTION, prefixedSubject } from './nats.options';
import { RpcClient } from './rpc-client';
import { RpcHandler } from './rpc-handler.decorator';
import { RPC_STATUS_HEADER, RpcStatus } from './rpc-reply';

const codec = JSONCodec<unknown>();

/** A finished span as the e2e tests read it from the OTLP receiver (its kind is the API's SpanKind + 1). */
function seen(s: ReadableSpan): ReceivedSpan {
  return {
    name: s.name,
    kind: s.kind + 1,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? '',
    attributes: { ...s.attributes },
    statusCode: s.status.code,
    statusMessage: s.status.message,
    service: String(s.resource.attributes['service.name']),
  };
}

class Name {
  @IsString()
  name: string;
}

class Numbered {
  @IsInt()
  n: number;
}

const Calls = {
  echo: rpc<Name, { hello: string }>('test.trace.echo', Name),
  missing: rpc<NoPayload, never>('test.trace.missing'),
  crash: rpc<NoPayload, never>('test.trace.crash'),
  /** Answered by a bare subscriber that keeps the headers it was sent. */
  raw: rpc<NoPayload, unknown>('test.trace.raw'),
};

const Events = {
  traced: event('events.traced', Numbered),
  plain: event('events.plain', Numbered),
};

@Injectable()
class TraceHandlers {
  @RpcHandler(Calls.echo)
  echo(p: Name) {
    return { hello: p.name };
  }

  @RpcHandler(Calls.missing)
  missing(): never {
    throw new DomainError(ErrorCode.NOT_FOUND, 'nothing here');
  }

  @RpcHandler(Calls.crash)
  crash(): never {
    throw new Error('boom');
  }
}

/**
 * W3C trace context across NATS, against the real server: a request's
 * server span is the child of the caller's client span, a consumed message's span the child of
 * its publish span, and with tracing off nothing is added to the messages.
 */
describe('tracing over NATS', () => {
  let infra: TestInfrastructure;
  const exporter = new InMemorySpanExporter();
  const spans = (): ReceivedSpan[] => exporter.getFinishedSpans().map(seen);
  let app: TestingModule;
  let rpcClient: RpcClient;
  let js: JetStream;
  let nc: NatsConnection;
  let tracing: Tracing | undefined;
  const consumers: RunningConsumer[] = [];
  /** The headers the bare subscriber of Calls.raw, and a core subscription to the events, received. */
  const rawHeaders: Array<MsgHdrs | undefined> = [];
  const eventHeaders: Array<MsgHdrs | undefined> = [];

  const ctx = { requestId: 'req-trace-1' };

  beforeAll(async () => {
    infra = await startTestInfrastructure('tracing');
    app = await startMessagingApp(infra, 'tracing-test', { providers: [TraceHandlers] });
    rpcClient = app.get(RpcClient);
    js = app.get(JetStream);
    nc = app.get<NatsConnection>(NATS_CONNECTION);
    await js.ensureStream(Streams.domainEvents);
    await js.ensureStream(Streams.deadLetters);
    nc.subscribe(prefixedSubject(infra.natsPrefix, Calls.raw.subject), {
      callback: (_err, msg: Msg) => {
        rawHeaders.push(msg.headers);
        const h = natsHeaders();
        h.set(RPC_STATUS_HEADER, RpcStatus.ok);
        msg.respond(codec.encode({ ok: true }), { headers: h });
      },
    });
    nc.subscribe(prefixedSubject(infra.natsPrefix, 'events.>'), { callback: (_err, msg) => eventHeaders.push(msg.headers) });
    await nc.flush();
  });

  afterAll(async () => {
    await tracing?.shutdown();
    for (const c of consumers) await c.stop();
    await app?.close();
    await infra?.teardown();
  });

  it('adds no trace headers while tracing is off, and keeps the request id', async () => {
    expect(tracingEnabled()).toBe(false);
    await rpcClient.call(Calls.raw, {}, ctx);
    await runWithRequestId('req-event-off', () => js.publish(Events.plain, { n: 0 }));
    await eventually('the event on the core subscription', () => (eventHeaders.length ? true : undefined));
    for (const h of [rawHeaders[0], eventHeaders[0]]) {
      expect(h?.keys().sort()).toEqual(expect.arrayContaining([RpcHeaders.requestId]));
      expect(h?.has('traceparent')).toBe(false);
      expect(h?.has('tracestate')).toBe(false);
    }
    expect(rawHeaders[0]?.get(RpcHeaders.requestId)).toBe('req-trace-1');
    expect(currentTraceIds()).toBeUndefined();
  });

  describe('with tracing on', () => {
    beforeAll(async () => {
      tracing = startTracing({ serviceName: 'tracing-test', url: 'http://127.0.0.1:9/v1/traces', exporter });
      rawHeaders.length = 0;
      eventHeaders.length = 0;
    });

    const exported = async <T>(find: () => T | undefined, label: string): Promise<T> => {
      return eventually(label, async () => {
        await tracing?.flush();
        return find();
      });
    };
    const byName = (name: string, kind: number) => (s: ReceivedSpan) => s.name === name && s.kind === kind;

    it('makes the handler span a child of the caller span, with the request id beside the traceparent', async () => {
      await expect(rpcClient.call(Calls.echo, { name: 'ada' }, ctx)).resolves.toEqual({ hello: 'ada' });
      const client = await exported(() => spans().find(byName(Calls.echo.subject, OtlpSpanKind.client)), 'the client span');
      const server = await exported(() => spans().find(byName(Calls.echo.subject, OtlpSpanKind.server)), 'the server span');
      expect(server.traceId).toBe(client.traceId);
      expect(server.parentSpanId).toBe(client.spanId);
      expect(client.parentSpanId).toBe(''); // no active span around the call: a new trace
      expect(server).toMatchObject({ service: 'tracing-test', statusCode: 0 });
      expect(server.attributes).toMatchObject({
        'rpc.system': 'nats',
        'rpc.method': Calls.echo.subject,
        'docintel.request_id': 'req-trace-1',
      });
      expect(client.attributes).toMatchObject({ 'docintel.rpc.outcome': 'ok' });

      // On the wire: traceparent names the client span, next to x-request-id.
      await rpcClient.call(Calls.raw, {}, ctx);
      const rawClient = await exported(() => spans().find(byName(Calls.raw.subject, OtlpSpanKind.client)), 'the raw client span');
      expect(rawHeaders[0]?.get('traceparent')).toBe(`00-${rawClient.traceId}-${rawClient.spanId}-01`);
      expect(rawHeaders[0]?.get(RpcHeaders.requestId)).toBe('req-trace-1');
    });

    it('continues the active span, and marks server faults (not caller errors) as errors', async () => {
      const outer = startSpan('outer work', { kind: 'internal' });
      await outer?.run(async () => {
        await expect(rpcClient.call(Calls.missing, {}, ctx)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
        await expect(rpcClient.call(Calls.crash, {}, ctx)).rejects.toMatchObject({ code: ErrorCode.INTERNAL });
      });
      outer?.end();
      const root = await exported(() => spans().find((s) => s.name === 'outer work'), 'the outer span');
      const missing = await exported(() => spans().find(byName(Calls.missing.subject, OtlpSpanKind.server)), 'the NOT_FOUND server span');
      const crashClient = await exported(() => spans().find(byName(Calls.crash.subject, OtlpSpanKind.client)), 'the crash client span');
      const crash = await exported(() => spans().find(byName(Calls.crash.subject, OtlpSpanKind.server)), 'the crash server span');
      expect(crashClient).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId, statusCode: 2 });
      expect(missing.traceId).toBe(root.traceId);
      expect(missing.statusCode).toBe(0);
      expect(crash).toMatchObject({
        traceId: root.traceId,
        parentSpanId: crashClient.spanId,
        statusCode: 2,
        statusMessage: ErrorCode.INTERNAL,
      });
    });

    it('carries the trace from a publish to the consumer, whose work continues it', async () => {
      const seen: Array<{ n: number; traceId?: string }> = [];
      consumers.push(
        await js.consume({
          message: Events.traced,
          durable: 'traced',
          handler: async (payload) => {
            seen.push({ n: payload.n, traceId: currentTraceIds()?.traceId });
            await rpcClient.call(Calls.echo, { name: `from-consumer-${payload.n}` }, ctx);
          },
        }),
      );
      const request = startSpan('GET /things', { kind: 'server' });
      await runWithRequestId('req-publish', () => request?.run(() => js.publish(Events.traced, { n: 1 })));
      request?.end();
      await eventually('the delivery', () => (seen.length ? true : undefined));

      const root = await exported(() => spans().find((s) => s.name === 'GET /things'), 'the request span');
      const publish = await exported(() => spans().find(byName('publish events.traced', OtlpSpanKind.producer)), 'the publish span');
      const processed = await exported(() => spans().find(byName('process events.traced', OtlpSpanKind.consumer)), 'the process span');
      const inner = await exported(
        () => spans().find((s) => s.kind === OtlpSpanKind.client && s.parentSpanId === processed.spanId),
        'the RPC client span inside the consumer',
      );
      expect(publish).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId });
      expect(processed).toMatchObject({ traceId: root.traceId, parentSpanId: publish.spanId, statusCode: 0 });
      expect(processed.attributes).toMatchObject({
        'messaging.destination.name': 'events.traced',
        'messaging.consumer.group.name': 'traced',
        'docintel.delivery_outcome': 'acked',
      });
      expect(inner).toMatchObject({ traceId: root.traceId, name: Calls.echo.subject });
      expect(seen).toEqual([{ n: 1, traceId: root.traceId }]);

      // The stored message carries the publish span's context.
      const stored = eventHeaders.find((h) => h?.get('traceparent'));
      expect(stored?.get('traceparent')).toBe(`00-${root.traceId}-${publish.spanId}-01`);
      expect(stored?.get(RpcHeaders.requestId)).toBe('req-publish');
    });

    it('reads a message without trace headers (an older publisher) in a new trace', async () => {
      const seen: number[] = [];
      consumers.push(
        await js.consume({
          message: Events.plain,
          durable: 'plain',
          handler: async (payload) => {
            seen.push(payload.n);
          },
        }),
      );
      const h = natsHeaders();
      h.set(RpcHeaders.requestId, 'req-old');
      await nc.jetstream().publish(prefixedSubject(infra.natsPrefix, Events.plain.subject), codec.encode({ n: 7 }), { headers: h });
      await eventually('the old message', () => (seen.includes(7) ? true : undefined));
      const processed = await exported(
        () =>
          spans().find(
            (s) => s.name === 'process events.plain' && s.attributes['messaging.consumer.group.name'] === 'plain' && !s.parentSpanId,
          ),
        'the process span of the old message',
      );
      expect(processed.kind).toBe(OtlpSpanKind.consumer);
    });
  });
});

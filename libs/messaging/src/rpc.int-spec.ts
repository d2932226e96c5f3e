import 'reflect-metadata';
import { Inject, Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { DomainError, ErrorCode, rpc, type NoPayload, type RpcCall, type RpcContext } from '@docintel/contracts';
import { currentRequestId } from '@docintel/observability';
import { domainRejection, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import type { NatsConnection } from 'nats';
import { startMessagingApp } from './testing/messaging-app';
import { NATS_CONNECTION, prefixedSubject } from './nats.options';
import { RpcClient, type JsonBytes } from './rpc-client';
import { RpcHandler } from './rpc-handler.decorator';
import { RPC_STATUS_HEADER } from './rpc-reply';

class Options {
  @IsIn(['formal', 'casual'])
  tone: string;
}

class Greeting {
  @IsString()
  name: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Options)
  options?: Options;
}

/** A reply with what JSON makes hard: escapes, non-ASCII, numbers, nulls, nesting, integer-like keys. */
const PAGE = {
  data: [
    {
      id: 'f-1',
      name: 'Résumé "final"\n\t😀 \u2028',
      size: 1.5e21,
      ratio: -0.1,
      tags: [],
      owner: null,
      extra: { '10': 1, b: [true, false] },
    },
    { id: 'f-2', name: 'back\\slash </script>', size: 0, ratio: 1 / 3, tags: ['a'], owner: { id: 'u' }, extra: {} },
  ],
  totalPages: 1,
  totalElements: 2,
  hasNext: false,
};

/** The test handlers' calls; their subjects live under the run's private prefix. */
const S = {
  echo: rpc<Greeting, { greeting: string; instance: string; validated: boolean }>('test.greeting.echo', Greeting),
  conflict: rpc<NoPayload, never>('test.greeting.conflict'),
  crash: rpc<NoPayload, never>('test.greeting.crash'),
  slow: rpc<Greeting, { done: string }>('test.greeting.slow', Greeting),
  /** Not validated, as a handler without a payload class is not: the payload type is the test's word. */
  count: { subject: 'test.greeting.count' } as RpcCall<{ n: number }, { n: number; instance: string }>,
  nobody: rpc<NoPayload, unknown>('test.nobody.listens'),
  page: rpc<NoPayload, typeof PAGE>('test.greeting.page'),
  nothing: rpc<NoPayload, void>('test.greeting.nothing'),
  encodedPage: rpc<NoPayload, typeof PAGE>('test.greeting.encoded-page'),
  /** Answered by a bare NATS subscriber, not an RpcServer. */
  foreign: rpc<NoPayload, unknown>('test.foreign.answer'),
};

class Deferred<T = void> {
  resolve!: (v: T) => void;
  readonly promise = new Promise<T>((r) => (this.resolve = r));
}

/** What a server instance saw; each instance of the test app has its own. */
class Probe {
  readonly calls: Array<{ subject: string; payload: unknown; ctx: RpcContext; requestIdInContext?: string }> = [];
  readonly entered = new Map<string, Deferred>();
  readonly gates = new Map<string, Deferred>();
  constructor(readonly instance: string) {}

  gate(name: string): Deferred {
    if (!this.gates.has(name)) this.gates.set(name, new Deferred());
    return this.gates.get(name) as Deferred;
  }
  entry(name: string): Deferred {
    if (!this.entered.has(name)) this.entered.set(name, new Deferred());
    return this.entered.get(name) as Deferred;
  }
}

const PROBE = Symbol('PROBE');

@Injectable()
class GreetingHandlers {
  constructor(@Inject(PROBE) private readonly probe: Probe) {}

  private record(subject: string, payload: unknown, ctx: RpcContext) {
    this.probe.calls.push({ subject, payload, ctx, requestIdInContext: currentRequestId() });
  }

  @RpcHandler(S.echo)
  echo(g: Greeting, ctx: RpcContext) {
    this.record(S.echo.subject, g, ctx);
    return { greeting: `hello ${g.name}`, instance: this.probe.instance, validated: g instanceof Greeting };
  }

  @RpcHandler(S.conflict)
  conflict(payload: unknown, ctx: RpcContext): never {
    this.record(S.conflict.subject, payload, ctx);
    throw new DomainError(ErrorCode.CONFLICT, 'That name is taken', [{ field: 'name', problem: 'is taken' }]);
  }

  @RpcHandler(S.crash)
  crash(): never {
    throw new TypeError('connection to db-7 with password hunter2 failed');
  }

  @RpcHandler(S.slow)
  async slow(g: Greeting) {
    this.probe.entry(g.name).resolve();
    await this.probe.gate(g.name).promise;
    return { done: g.name };
  }

  @RpcHandler(S.page)
  page() {
    return PAGE;
  }

  @RpcHandler(S.nothing)
  nothing(): void {}

  /** Spaced as Postgres prints jsonb, so that a second encoding would show. */
  @RpcHandler(S.encodedPage)
  encodedPage(): JsonBytes<typeof PAGE> {
    return Buffer.from(JSON.stringify(PAGE, null, 1));
  }

  @RpcHandler(S.count)
  count(payload: { n: number }) {
    this.probe.calls.push({ subject: S.count.subject, payload, ctx: { requestId: '' } });
    return { n: payload.n, instance: this.probe.instance };
  }
}

function startApp(infra: TestInfrastructure, service: string, probe?: Probe): Promise<TestingModule> {
  return startMessagingApp(infra, service, {
    providers: probe ? [{ provide: PROBE, useValue: probe }, GreetingHandlers] : [],
    shutdownTimeoutMs: 10_000,
  });
}

describe('RPC over NATS', () => {
  let infra: TestInfrastructure;
  let server: TestingModule;
  let clientApp: TestingModule;
  let client: RpcClient;
  const probe = new Probe('a');
  const open = new Set<TestingModule>();
  const ctx = (requestId: string): RpcContext => ({ requestId });

  beforeAll(async () => {
    infra = await startTestInfrastructure('rpc');
    server = await startApp(infra, 'greeter', probe);
    clientApp = await startApp(infra, 'caller');
    open.add(server).add(clientApp);
    client = clientApp.get(RpcClient);
  });

  afterAll(async () => {
    for (const app of open) await app.close();
    await infra?.teardown();
  });

  beforeEach(() => {
    probe.calls.length = 0;
  });

  it('answers a request and carries the caller context to the handler', async () => {
    const caller: RpcContext = { requestId: 'req-round-trip-1', namespaceId: 'ns-id', namespaceName: 'acme', userId: 'user-1' };
    const reply = await client.call(S.echo, { name: 'Ada', options: { tone: 'casual' } }, caller);
    expect(reply).toEqual({ greeting: 'hello Ada', instance: 'a', validated: true });
    expect(probe.calls).toHaveLength(1);
    expect(probe.calls[0].ctx).toEqual(caller);
    // Log lines written by the handler carry the caller's request id.
    expect(probe.calls[0].requestIdInContext).toBe('req-round-trip-1');
  });

  it('brings a DomainError back with its code, message and details', async () => {
    const err = await domainRejection(client.call(S.conflict, {}, ctx('req-conflict')));
    expect(err.code).toBe(ErrorCode.CONFLICT);
    expect(err.message).toBe('That name is taken');
    expect(err.details).toEqual([{ field: 'name', problem: 'is taken' }]);
  });

  it('turns an unexpected failure into INTERNAL with an error id and nothing of the cause', async () => {
    const err = await domainRejection(client.call(S.crash, {}, ctx('req-crash')));
    expect(err.code).toBe(ErrorCode.INTERNAL);
    expect(err.message).toMatch(/^Internal error \(error id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)$/);
    expect(err.message).not.toContain('hunter2');
    expect(err.details).toEqual([]);
  });

  it('rejects an invalid payload with VALIDATION_FAILED naming each field, before the handler runs', async () => {
    const err = await domainRejection(
      client.call(S.echo, { name: 42, options: { tone: 'rude' } } as unknown as Greeting, ctx('req-invalid')),
    );
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.details).toEqual(
      expect.arrayContaining([{ field: 'name', problem: 'must be a string' }, expect.objectContaining({ field: 'options.tone' })]),
    );
    expect(probe.calls).toHaveLength(0);
  });

  it('answers SERVICE_UNAVAILABLE when nobody serves the subject', async () => {
    const err = await domainRejection(client.call(S.nobody, {}, ctx('req-nobody')));
    expect(err.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(err.message).toContain('The test service is not available');
  });

  it('answers TIMEOUT when the handler does not reply in time', async () => {
    const err = await domainRejection(client.call(S.slow, { name: 'sloth' }, ctx('req-slow'), 300));
    expect(err.code).toBe(ErrorCode.TIMEOUT);
    expect(err.message).toBe('The test service did not answer within 300 ms');
    probe.gate('sloth').resolve();
  });

  describe('callJson', () => {
    it("resolves with the JSON of the handler's data, byte for byte, unparsed", async () => {
      const json = await client.callJson(S.page, {}, ctx('req-json'));
      expect(Buffer.isBuffer(json)).toBe(true);
      expect(json.toString('utf8')).toBe(JSON.stringify(PAGE));
      expect(JSON.parse(json.toString('utf8'))).toEqual(await client.call(S.page, {}, ctx('req-json-call')));
    });

    it('passes on the JSON bytes a handler answers as they are, which call parses as it parses any reply', async () => {
      const json = await client.callJson(S.encodedPage, {}, ctx('req-encoded-json'));
      expect(json.toString('utf8')).toBe(JSON.stringify(PAGE, null, 1));
      await expect(client.call(S.encodedPage, {}, ctx('req-encoded-call'))).resolves.toEqual(PAGE);
    });

    it('resolves with no bytes when the handler returns nothing, where call resolves with undefined', async () => {
      expect((await client.callJson(S.nothing, {}, ctx('req-json-nothing'))).length).toBe(0);
      await expect(client.call(S.nothing, {}, ctx('req-call-nothing'))).resolves.toBeUndefined();
    });

    it('rejects a failure reply with the DomainError call rejects with', async () => {
      const viaCall = await domainRejection(client.call(S.conflict, {}, ctx('req-conflict-call')));
      const viaJson = await domainRejection(client.callJson(S.conflict, {}, ctx('req-conflict-json')));
      expect(viaJson.toPayload()).toEqual(viaCall.toPayload());

      const invalid = { name: 42 } as unknown as Greeting;
      const invalidCall = await domainRejection(client.call(S.echo, invalid, ctx('req-invalid-call')));
      const invalidJson = await domainRejection(client.callJson(S.echo, invalid, ctx('req-invalid-json')));
      expect(invalidJson.toPayload()).toEqual(invalidCall.toPayload());

      const crash = await domainRejection(client.callJson(S.crash, {}, ctx('req-crash-json')));
      expect(crash.code).toBe(ErrorCode.INTERNAL);
      expect(crash.message).toMatch(/^Internal error \(error id [0-9a-f-]{36}\)$/);
    });

    it('fails on no responder and on timeout as call does', async () => {
      const nobody = await domainRejection(client.callJson(S.nobody, {}, ctx('req-json-nobody')));
      expect(nobody.toPayload()).toEqual((await domainRejection(client.call(S.nobody, {}, ctx('req-call-nobody')))).toPayload());
      const slow = await domainRejection(client.callJson(S.slow, { name: 'sloth-json' }, ctx('req-json-slow'), 300));
      expect(slow.code).toBe(ErrorCode.TIMEOUT);
      expect(slow.message).toBe('The test service did not answer within 300 ms');
      probe.gate('sloth-json').resolve();
    });
  });

  it('puts the data alone in the body of a reply and says ok or error in a header', async () => {
    const nc = clientApp.get<NatsConnection>(NATS_CONNECTION);
    const ok = await nc.request(prefixedSubject(infra.natsPrefix, S.page.subject), new TextEncoder().encode('{}'));
    expect(ok.headers?.get(RPC_STATUS_HEADER)).toBe('ok');
    expect(new TextDecoder().decode(ok.data)).toBe(JSON.stringify(PAGE));
    const failed = await nc.request(prefixedSubject(infra.natsPrefix, S.conflict.subject), new TextEncoder().encode('{}'));
    expect(failed.headers?.get(RPC_STATUS_HEADER)).toBe('error');
    expect(JSON.parse(new TextDecoder().decode(failed.data))).toEqual({
      code: ErrorCode.CONFLICT,
      message: 'That name is taken',
      details: [{ field: 'name', problem: 'is taken' }],
    });
  });

  it('answers SERVICE_UNAVAILABLE to a reply that does not say its status, on both entry points', async () => {
    const nc = clientApp.get<NatsConnection>(NATS_CONNECTION);
    const sub = nc.subscribe(prefixedSubject(infra.natsPrefix, S.foreign.subject), {
      callback: (_err, msg) => msg.respond(new TextEncoder().encode('{"ok":true,"data":1}')),
    });
    await nc.flush();
    try {
      for (const p of [client.call(S.foreign, {}, ctx('req-foreign')), client.callJson(S.foreign, {}, ctx('req-foreign-json'))]) {
        const err = await domainRejection(p);
        expect(err.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
        expect(err.message).toBe('Messaging failure talking to the test service: a reply with no x-rpc-status header');
      }
    } finally {
      sub.unsubscribe();
    }
  });

  it('shares requests between instances of a service: each one is handled once', async () => {
    const other = new Probe('b');
    const second = await startApp(infra, 'greeter', other);
    open.add(second);
    // A round trip to the server makes sure it has the second instance's subscription before requests go out.
    await second.get<NatsConnection>(NATS_CONNECTION).flush();
    try {
      const n = 60;
      const replies = await Promise.all(Array.from({ length: n }, (_, i) => client.call(S.count, { n: i }, ctx(`req-count-${i}`))));
      expect(replies.map((r) => r.n)).toEqual(Array.from({ length: n }, (_, i) => i));
      const handled = [...probe.calls, ...other.calls].map((c) => (c.payload as { n: number }).n).sort((x, y) => x - y);
      expect(handled).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(probe.calls.length).toBeGreaterThan(0);
      expect(other.calls.length).toBeGreaterThan(0);
    } finally {
      await second.close();
      open.delete(second);
    }
  });

  it('drains on close: a request in flight still gets its reply, new ones find no responder', async () => {
    const inFlight = client.call(S.slow, { name: 'last-one' }, ctx('req-in-flight'), 20_000);
    await probe.entry('last-one').promise;
    const closing = server.close();
    open.delete(server);

    // Wait until the server has stopped taking requests, while the first one is still running.
    let stopped: DomainError | undefined;
    for (let i = 0; i < 200 && !stopped; i++) {
      try {
        await client.call(S.echo, { name: 'late' }, ctx(`req-late-${i}`), 1000);
        await new Promise((r) => setTimeout(r, 25));
      } catch (err) {
        stopped = err as DomainError;
      }
    }
    expect(stopped?.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);

    probe.gate('last-one').resolve();
    await expect(inFlight).resolves.toEqual({ done: 'last-one' });
    await closing;
  });
});

import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import type { NatsConnection } from 'nats';
import { Client, Pool } from 'pg';
import { ErrorCode, rpc, type NoPayload, type RpcCall, type RpcContext } from '@docintel/contracts';
import { domainRejection, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { startMessagingApp } from './testing/messaging-app';
import { NATS_CONNECTION } from './nats.options';
import { RpcClient } from './rpc-client';
import { RpcHandler } from './rpc-handler.decorator';

/** The test handlers' calls; none validates its payload, so the payload types are the test's word. */
const S = {
  huge: { subject: 'test.hardening.huge' } as RpcCall<{ bytes: number }, { padding: string }>,
  bigint: rpc<NoPayload, { n: bigint }>('test.hardening.bigint'),
  echo: { subject: 'test.hardening.echo' } as RpcCall<Record<string, unknown>, unknown>,
  db: { subject: 'test.hardening.db' } as RpcCall<{ failure: 'refused' | 'pool-timeout' | 'syntax' }, unknown>,
};

/** The database URL of the test run, set before the handlers are called. */
let databaseUrl = '';

@Injectable()
class HardeningHandlers {
  @RpcHandler(S.huge)
  huge(payload: { bytes: number }) {
    return { padding: 'x'.repeat(payload.bytes) };
  }

  @RpcHandler(S.bigint)
  bigint() {
    return { n: BigInt(1) }; // JSON cannot hold it
  }

  @RpcHandler(S.echo)
  echo(payload: unknown) {
    return payload;
  }

  /** Real node-postgres failures: a server that refuses, a pool with no connection to give, a bad query. */
  @RpcHandler(S.db)
  async db({ failure }: { failure: 'refused' | 'pool-timeout' | 'syntax' }) {
    if (failure === 'refused') {
      const url = new URL(databaseUrl);
      url.port = '1';
      await new Client({ connectionString: url.toString() }).connect();
    }
    const pool = new Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    try {
      if (failure === 'syntax') return await held.query('SELEC 1');
      return await pool.query('SELECT 1');
    } finally {
      held.release();
      await pool.end();
    }
  }
}

function startApp(infra: TestInfrastructure, service: string, handlers: boolean): Promise<TestingModule> {
  return startMessagingApp(infra, service, { providers: handlers ? [HardeningHandlers] : [] });
}

describe('RPC server: replies that cannot be sent', () => {
  let infra: TestInfrastructure;
  let server: TestingModule;
  let clientApp: TestingModule;
  let client: RpcClient;
  let maxPayload: number;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const ctx = (requestId: string): RpcContext => ({ requestId });

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    infra = await startTestInfrastructure('rpchard');
    databaseUrl = infra.databaseUrl;
    server = await startApp(infra, 'hardened', true);
    clientApp = await startApp(infra, 'caller', false);
    client = clientApp.get(RpcClient);
    maxPayload = clientApp.get<NatsConnection>(NATS_CONNECTION).info?.max_payload as number;
  });

  afterAll(async () => {
    await server?.close();
    await clientApp?.close();
    await infra?.teardown();
    process.off('unhandledRejection', onUnhandled);
  });

  it('answers a reply larger than the NATS max payload with INTERNAL naming the sizes, and keeps serving', async () => {
    expect(maxPayload).toBeGreaterThan(0);
    const err = await domainRejection(client.call(S.huge, { bytes: maxPayload + 10 }, ctx('req-huge')));
    expect(err.code).toBe(ErrorCode.INTERNAL);
    expect(err.message).toMatch(
      new RegExp(`^The reply is too large to send: \\d+ bytes, the messaging limit is ${maxPayload} bytes \\(error id [0-9a-f-]{36}\\)$`),
    );
    // The server is still there, and a reply that fits still goes through.
    await expect(client.call(S.echo, { still: 'alive' }, ctx('req-after'))).resolves.toEqual({ still: 'alive' });
    await expect(client.call(S.huge, { bytes: 1000 }, ctx('req-small'))).resolves.toEqual({ padding: 'x'.repeat(1000) });
    // callJson meets the same error reply.
    const raw = await domainRejection(client.callJson(S.huge, { bytes: maxPayload + 10 }, ctx('req-huge-json')));
    expect(raw.code).toBe(ErrorCode.INTERNAL);
    expect(raw.message).toMatch(/^The reply is too large to send: /);
    expect(unhandled).toEqual([]);
  });

  it('answers a reply that JSON cannot encode with INTERNAL', async () => {
    const err = await domainRejection(client.call(S.bigint, {}, ctx('req-bigint')));
    expect(err.code).toBe(ErrorCode.INTERNAL);
    expect(err.message).toMatch(/^Internal error \(error id [0-9a-f-]{36}\)$/);
    const raw = await domainRejection(client.callJson(S.bigint, {}, ctx('req-bigint-json')));
    expect(raw.code).toBe(ErrorCode.INTERNAL);
    expect(unhandled).toEqual([]);
  });

  it('refuses a request larger than the NATS max payload with PAYLOAD_TOO_LARGE', async () => {
    const err = await domainRejection(client.call(S.echo, { padding: 'y'.repeat(maxPayload) }, ctx('req-too-big')));
    expect(err.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect(err.message).toBe(`The request is too large to pass to the test service (the messaging limit is ${maxPayload} bytes)`);
  });

  it('answers SERVICE_UNAVAILABLE, not INTERNAL, when the database refuses or has no connection to give', async () => {
    for (const failure of ['refused', 'pool-timeout'] as const) {
      const err = await domainRejection(client.call(S.db, { failure }, ctx(`req-db-${failure}`)));
      expect({ failure, code: err.code, message: err.message }).toEqual({
        failure,
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: expect.stringMatching(/^The database is not available right now/),
      });
    }
    // A query that is wrong stays a bug.
    expect((await domainRejection(client.call(S.db, { failure: 'syntax' }, ctx('req-db-syntax')))).code).toBe(ErrorCode.INTERNAL);
  });
});

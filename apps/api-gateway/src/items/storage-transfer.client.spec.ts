import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { DomainError, ErrorCode } from '@docintel/contracts';
import type { GatewayEnv } from '../gateway.env';
import { StorageTransferClient } from './storage-transfer.client';

/** A stand-in for the storage service's transfer endpoint that records how each upload ended. */
function fakeStorage(): Promise<{ server: Server; client: StorageTransferClient; outcomes: Array<Promise<string>>; opened: () => number }> {
  const outcomes: Array<Promise<string>> = [];
  let count = 0;
  const server = createServer((req: IncomingMessage, res) => {
    count++;
    outcomes.push(
      new Promise<string>((resolve) => {
        let bytes = 0;
        req.on('data', (c: Buffer) => (bytes += c.length));
        req.on('end', () => {
          res.end(JSON.stringify({ key: 'x', size: bytes }));
          resolve(`complete ${bytes}`);
        });
        req.on('error', () => resolve(`aborted after ${bytes}`));
        req.on('close', () => {
          if (!req.complete) resolve(`aborted after ${bytes}`);
        });
      }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const client = new StorageTransferClient({ STORAGE_SERVICE_URL: `http://127.0.0.1:${port}` } as GatewayEnv);
      resolve({ server, client, outcomes, opened: () => count });
    }),
  );
}

/** A grant of the shape storage signs (`<base64url>.<base64url>`); storage here is a stand-in. */
const GRANT = 'eyJ0IjoxfQ.c2lnbmF0dXJl';

describe('StorageTransferClient.put', () => {
  let storage: Awaited<ReturnType<typeof fakeStorage>>;
  beforeEach(async () => {
    storage = await fakeStorage();
  });
  afterEach(async () => {
    storage.client.onApplicationShutdown();
    await new Promise((r) => storage.server.close(r));
  });

  it('relays a body to its end', async () => {
    const body = new PassThrough();
    const done = storage.client.put<{ size: number }>(GRANT, body, {});
    body.end(Buffer.alloc(10));
    expect((await done).item.size).toBe(10);
    expect(await storage.outcomes[0]).toBe('complete 10');
  });

  it('tears the transfer down at once when the body is closed before its end (the client went away)', async () => {
    const body = new PassThrough();
    const done = storage.client.put(GRANT, body, {}).catch((e: unknown) => e);
    body.write(Buffer.alloc(1000));
    await new Promise((r) => setTimeout(r, 50));
    body.destroy();
    const err = await done;
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('VALIDATION_FAILED');
    expect(await storage.outcomes[0]).toMatch(/^aborted/);
  });

  it('passes on the error a body fails with, and aborts the transfer', async () => {
    const body = new PassThrough();
    const done = storage.client.put(GRANT, body, {}).catch((e: unknown) => e);
    body.write(Buffer.alloc(100));
    await new Promise((r) => setTimeout(r, 50));
    const cause = new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, 'too large');
    body.destroy(cause);
    expect(await done).toBe(cause);
    expect(await storage.outcomes[0]).toMatch(/^aborted/);
  });

  it('never opens a transfer for a body that has failed or closed already', async () => {
    const failed = new PassThrough();
    failed.on('error', () => undefined);
    failed.destroy(new Error('cut'));
    await expect(storage.client.put(GRANT, failed, {})).rejects.toThrow('cut');
    const closed = new PassThrough();
    closed.destroy();
    await expect(storage.client.put(GRANT, closed, {})).rejects.toBeInstanceOf(DomainError);
    expect(storage.opened()).toBe(0);
  });
});

describe('StorageTransferClient grants', () => {
  it('refuses a grant that is not a token (a dot segment would reach another storage route) with FORBIDDEN', async () => {
    const client = new StorageTransferClient({ STORAGE_SERVICE_URL: 'http://127.0.0.1:9' } as never);
    for (const grant of ['..', '.', 'a/b', 'abc']) {
      await expect(client.get(grant, {})).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    }
    client.onApplicationShutdown();
  });
});

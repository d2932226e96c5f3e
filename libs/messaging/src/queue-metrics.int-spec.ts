import 'reflect-metadata';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsInt } from 'class-validator';
import { event, Streams } from '@docintel/contracts';
import { eventually, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { JetStream, type RunningConsumer } from './jetstream';
import { compileMessagingApp } from './testing/messaging-app';

class Numbered {
  @IsInt()
  n: number;
}

const Depth = event('events.depth', Numbered);

/** The value of a sample in a Prometheus text scrape, or undefined when the series is absent. */
function sample(scrape: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    if (wanted.every((w) => labelText.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** /metrics of a process with a durable consumer: its queue depth, read from JetStream at scrape time. */
describe('queue gauges on /metrics', () => {
  let infra: TestInfrastructure;
  let app: NestFastifyApplication;
  let js: JetStream;
  let consumer: RunningConsumer | undefined;

  beforeAll(async () => {
    infra = await startTestInfrastructure('queuemetrics');
    const moduleRef = await compileMessagingApp(infra, 'queue-test');
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    js = app.get(JetStream);
    await js.ensureStream(Streams.domainEvents);
  });

  afterAll(async () => {
    await consumer?.stop();
    await app?.close();
    await infra?.teardown();
  });

  const scrape = async (): Promise<string> => {
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('shows the pending and unacknowledged messages of each durable the process consumes', async () => {
    const stream = `${infra.natsPrefix}_DOMAIN_EVENTS`;
    const durable = `${infra.natsPrefix}_depth`;
    const labels = { stream, consumer: durable, service: 'queue-test' };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let handled = 0;
    consumer = await js.consume({
      message: Depth,
      durable: 'depth',
      maxMessages: 1,
      handler: async () => {
        await gate; // the first message holds the consumer: the rest wait in the stream
        handled++;
      },
    });
    const before = await scrape();
    expect(sample(before, 'docintel_queue_pending_messages', labels)).toBe(0);
    expect(sample(before, 'docintel_queue_ack_pending_messages', labels)).toBe(0);
    expect(sample(before, 'docintel_queue_redelivered_messages', labels)).toBe(0);

    const N = 8;
    for (let n = 0; n < N; n++) await js.publish(Depth, { n });
    // One message is in the handler and the client holds at most one more it fetched ahead
    // (maxMessages 1): the others are pending in the stream.
    const held = await eventually('the figures to account for every message', async () => {
      const text = await scrape();
      const pending = sample(text, 'docintel_queue_pending_messages', labels) ?? -1;
      const ackPending = sample(text, 'docintel_queue_ack_pending_messages', labels) ?? -1;
      return pending + ackPending === N && ackPending >= 1 ? { pending, ackPending } : undefined;
    });
    expect(held.ackPending).toBeLessThanOrEqual(2);
    expect(held.pending).toBe(N - held.ackPending);

    release();
    await eventually('every message handled and acknowledged', async () => {
      const text = await scrape();
      const done =
        handled === N &&
        sample(text, 'docintel_queue_pending_messages', labels) === 0 &&
        sample(text, 'docintel_queue_ack_pending_messages', labels) === 0;
      return done ? true : undefined;
    });

    // A stopped consumer is no longer this process's to report.
    await consumer.stop();
    consumer = undefined;
    const after = await eventually('the stopped consumer to leave the scrape', async () => {
      const text = await scrape();
      return sample(text, 'docintel_queue_pending_messages', labels) === undefined ? text : undefined;
    });
    expect(after).toContain('# TYPE docintel_queue_pending_messages gauge');
  });
});

import 'reflect-metadata';
import { type TestingModule } from '@nestjs/testing';
import { JSONCodec, type JetStreamManager, type NatsConnection } from 'nats';
import { IsBoolean, IsInt } from 'class-validator';
import { Streams, deadLetterSubject, event } from '@docintel/contracts';
import { eventually, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { JetStream, type RunningConsumer } from './jetstream';
import { startMessagingApp } from './testing/messaging-app';
import { NATS_CONNECTION, prefixedSubject } from './nats.options';

const codec = JSONCodec<unknown>();

class Numbered {
  @IsInt()
  n: number;
}

class Outcome {
  @IsBoolean()
  fail: boolean;
}

const Garbage = event('events.garbage', Numbered);
const NoDlq = event('events.nodlq', Outcome);

/** A consumer keeps consuming whatever one message does; nothing it does becomes an unhandled rejection. */
describe('JetStream consumers under failures outside the handler', () => {
  let infra: TestInfrastructure;
  let app: TestingModule;
  let js: JetStream;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const consumers: RunningConsumer[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    infra = await startTestInfrastructure('jshard');
    app = await startMessagingApp(infra, 'js-hard');
    js = app.get(JetStream);
    nc = app.get<NatsConnection>(NATS_CONNECTION);
    jsm = await nc.jetstreamManager();
    await js.ensureStream(Streams.domainEvents);
    await js.ensureStream(Streams.deadLetters);
  });

  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await app?.close();
    await infra?.teardown();
    process.off('unhandledRejection', onUnhandled);
  });

  const lastDeadLetter = async (subject: string) => {
    try {
      const m = await jsm.streams.getMessage(js.streamName(Streams.deadLetters), {
        last_by_subj: prefixedSubject(infra.natsPrefix, deadLetterSubject(subject)),
      });
      return codec.decode(m.data);
    } catch {
      return undefined;
    }
  };

  it('parks a message that is not JSON at once, and goes on with the next one', async () => {
    const seen: unknown[] = [];
    consumers.push(
      await js.consume({
        message: Garbage,
        durable: 'garbage',
        maxDeliver: 1,
        handler: async (payload) => {
          seen.push(payload);
        },
      }),
    );
    // Published around JetStream.publish, as a foreign or broken producer would.
    await nc.jetstream().publish(prefixedSubject(infra.natsPrefix, 'events.garbage'), new TextEncoder().encode('{not json'));
    await js.publish(Garbage, { n: 2 });
    const parked = await eventually('the dead letter', () => lastDeadLetter('events.garbage'));
    expect(parked).toEqual({
      subject: 'events.garbage',
      error: expect.stringMatching(/^the message is not valid JSON/),
      payload: '{not json',
    });
    await eventually('the next message', async () => (seen.length ? seen : undefined));
    expect(seen).toEqual([{ n: 2 }]);
    expect(unhandled).toEqual([]);
  });

  it('keeps consuming when the dead letter cannot be published', async () => {
    const attempts: number[] = [];
    const done: unknown[] = [];
    consumers.push(
      await js.consume({
        message: NoDlq,
        durable: 'no-dlq',
        maxDeliver: 1,
        handler: async (payload, meta) => {
          attempts.push(meta.deliveryCount);
          if (payload.fail) throw new Error('always fails');
          done.push(payload);
        },
      }),
    );
    await jsm.streams.delete(js.streamName(Streams.deadLetters)); // nowhere to park it
    try {
      await js.publish(NoDlq, { fail: true });
      await eventually('the failing delivery', async () => (attempts.length ? true : undefined));
      await js.publish(NoDlq, { fail: false });
      await eventually('the next message', async () => (done.length ? done : undefined));
      expect(done).toEqual([{ fail: false }]);
      expect(unhandled).toEqual([]);
    } finally {
      await js.ensureStream(Streams.deadLetters);
    }
  });
});

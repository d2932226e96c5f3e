import 'reflect-metadata';
import { type TestingModule } from '@nestjs/testing';
import { JSONCodec, type JetStreamManager, type NatsConnection } from 'nats';
import { IsInt, IsString, MaxLength } from 'class-validator';
import { Streams, deadLetterSubject, event } from '@docintel/contracts';
import { currentRequestId, runWithRequestId } from '@docintel/observability';
import { eventually, startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { JetStream, type RunningConsumer } from './jetstream';
import { startMessagingApp } from './testing/messaging-app';
import { NATS_CONNECTION } from './nats.options';

const codec = JSONCodec<unknown>();

class Numbered {
  @IsInt()
  n: number;
}

class Versioned {
  @IsInt()
  v: number;
}

class Greeting {
  @IsString()
  @MaxLength(10)
  text: string;
}

/** The test's stream messages, defined as libs/contracts defines the real ones. */
const Messages = {
  kept: event('events.kept', Numbered),
  once: event('events.once', Numbered),
  fails: event('events.fails', Numbered),
  dedupe: event('events.dedupe', Versioned),
  greeting: event('events.greeting', Greeting),
};

/** Redeliveries and sweeps take a few ack waits here: poll longer than the default. */
const SETTLES = { timeoutMs: 20_000 };

describe('JetStream', () => {
  let infra: TestInfrastructure;
  let app: TestingModule;
  let js: JetStream;
  let jsm: JetStreamManager;
  const consumers: RunningConsumer[] = [];
  const subject = (s: string) => `${infra.natsPrefix}.${s}`;

  beforeAll(async () => {
    infra = await startTestInfrastructure('jetstream');
    app = await startMessagingApp(infra, 'events-test');
    js = app.get(JetStream);
    jsm = await app.get<NatsConnection>(NATS_CONNECTION).jetstreamManager();
    await js.ensureStream(Streams.domainEvents);
    await js.ensureStream(Streams.deadLetters);
  });

  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await app?.close();
    await infra?.teardown();
  });

  const messagesOn = async (stream: string, subj: string): Promise<number> => {
    const info = await jsm.streams.info(stream, { subjects_filter: subj });
    return info.state.subjects?.[subj] ?? 0;
  };

  it('creates prefixed streams, and ensuring them again (even all at once) keeps their messages', async () => {
    const name = js.streamName(Streams.domainEvents);
    expect(name).toBe(`${infra.natsPrefix}_DOMAIN_EVENTS`);
    await js.publish(Messages.kept, { n: 1 });
    await Promise.all([js.ensureStream(Streams.domainEvents), js.ensureStream(Streams.domainEvents)]);
    await js.ensureStream(Streams.domainEvents);
    const info = await jsm.streams.info(name);
    expect(info.config.subjects).toEqual([subject('events.>')]);
    expect(await messagesOn(name, subject('events.kept'))).toBe(1);

    const hooks = js.streamName(Streams.hooks);
    await Promise.all([js.ensureStream(Streams.hooks), js.ensureStream(Streams.hooks), js.ensureStream(Streams.hooks)]);
    expect((await jsm.streams.info(hooks)).config.subjects).toEqual(Streams.hooks.subjects.map(subject));
  });

  it('delivers a published event once to a durable consumer, which acks it', async () => {
    const seen: Array<{ payload: unknown; subject: string; deliveryCount: number; requestId?: string }> = [];
    const opts = {
      message: Messages.once,
      durable: 'once',
      handler: async (payload: Numbered, meta: { subject: string; deliveryCount: number }) => {
        seen.push({ payload, subject: meta.subject, deliveryCount: meta.deliveryCount, requestId: currentRequestId() });
      },
    };
    let consumer = await js.consume(opts);
    await runWithRequestId('req-event-1', () => js.publish(Messages.once, { n: 1 }));
    const durable = `${infra.natsPrefix}_once`;
    const stream = js.streamName(Streams.domainEvents);
    await eventually(
      'the event to be acked',
      async () => {
        const info = await jsm.consumers.info(stream, durable);
        return info.ack_floor.consumer_seq >= 1 && info.num_ack_pending === 0 ? info : undefined;
      },
      SETTLES,
    );
    expect(seen).toEqual([{ payload: { n: 1 }, subject: 'events.once', deliveryCount: 1, requestId: 'req-event-1' }]);

    // A restarted consumer with the same durable name continues after the acked event.
    await consumer.stop();
    consumer = await js.consume(opts);
    consumers.push(consumer);
    await js.publish(Messages.once, { n: 2 });
    await eventually('the second event', async () => (seen.length >= 2 ? true : undefined), SETTLES);
    await eventually(
      'the second ack',
      async () => {
        const info = await jsm.consumers.info(stream, durable);
        return info.num_ack_pending === 0 && info.num_pending === 0 ? true : undefined;
      },
      SETTLES,
    );
    expect(seen.map((s) => s.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('retries a failing handler, then parks the event on the dead-letter subject after maxDeliver', async () => {
    const attempts: number[] = [];
    consumers.push(
      await js.consume({
        message: Messages.fails,
        durable: 'always-fails',
        maxDeliver: 3,
        handler: async (_payload, meta) => {
          attempts.push(meta.deliveryCount);
          throw new Error('cannot process this one');
        },
      }),
    );
    await js.publish(Messages.fails, { n: 7 });
    const dlqStream = js.streamName(Streams.deadLetters);
    const dlqSubject = subject(deadLetterSubject('events.fails'));
    expect(dlqSubject).toBe(subject('dlq.events.fails'));
    const parked = await eventually(
      'the dead letter',
      async () => {
        try {
          return await jsm.streams.getMessage(dlqStream, { last_by_subj: dlqSubject });
        } catch {
          return undefined;
        }
      },
      SETTLES,
    );
    expect(codec.decode(parked.data)).toEqual({ subject: 'events.fails', error: 'cannot process this one', payload: { n: 7 } });
    expect(attempts).toEqual([1, 2, 3]);
    const info = await eventually(
      'the consumer to settle',
      async () => {
        const i = await jsm.consumers.info(js.streamName(Streams.domainEvents), `${infra.natsPrefix}_always-fails`);
        return i.num_ack_pending === 0 && i.num_pending === 0 ? i : undefined;
      },
      SETTLES,
    );
    expect(info.num_redelivered).toBe(0);
    expect(await messagesOn(dlqStream, dlqSubject)).toBe(1);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('stores an event published twice with the same msgId once', async () => {
    const stream = js.streamName(Streams.domainEvents);
    const subj = subject('events.dedupe');
    await js.publish(Messages.dedupe, { v: 1 }, 'order-42-created');
    await js.publish(Messages.dedupe, { v: 1 }, 'order-42-created');
    expect(await messagesOn(stream, subj)).toBe(1);
    await js.publish(Messages.dedupe, { v: 2 }, 'order-43-created');
    await js.publish(Messages.dedupe, { v: 3 });
    await js.publish(Messages.dedupe, { v: 3 });
    expect(await messagesOn(stream, subj)).toBe(4);
  });

  it('validates every message against its class: one that does not fit is dead-lettered with the reason and terminated', async () => {
    const seen: Greeting[] = [];
    consumers.push(
      await js.consume({
        message: Messages.greeting,
        durable: 'greetings',
        maxDeliver: 5,
        handler: async (payload) => {
          seen.push(payload);
        },
      }),
    );
    // A producer that ignores the contract (or an older version of it): published around the typed publish.
    const nc = app.get<NatsConnection>(NATS_CONNECTION);
    await nc.jetstream().publish(subject('events.greeting'), codec.encode({ text: 'far too long for a greeting' }));
    await nc.jetstream().publish(subject('events.greeting'), codec.encode({ text: 42 }));
    await js.publish(Messages.greeting, { text: 'hello' });

    const dlqStream = js.streamName(Streams.deadLetters);
    const dlqSubject = subject(deadLetterSubject('events.greeting'));
    await eventually('two dead letters', async () => ((await messagesOn(dlqStream, dlqSubject)) >= 2 ? true : undefined), SETTLES);
    const info = await jsm.streams.info(dlqStream);
    const letters: unknown[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(dlqStream, { seq }).catch(() => null);
      if (m?.subject === dlqSubject) letters.push(codec.decode(m.data));
    }
    expect(letters).toEqual([
      {
        subject: 'events.greeting',
        error: 'the message does not fit its contract (Greeting): text: must be shorter than or equal to 10 characters',
        payload: { text: 'far too long for a greeting' },
      },
      {
        subject: 'events.greeting',
        error: expect.stringMatching(/^the message does not fit its contract \(Greeting\): .*text: must be a string/),
        payload: { text: 42 },
      },
    ]);
    // Only the valid message reached the handler, as an instance of its class; the invalid ones were
    // terminated at their first delivery, not retried.
    await eventually('the valid message', async () => (seen.length ? true : undefined), SETTLES);
    expect(seen).toEqual([{ text: 'hello' }]);
    expect(seen[0]).toBeInstanceOf(Greeting);
    const settled = await eventually(
      'the consumer to settle',
      async () => {
        const i = await jsm.consumers.info(js.streamName(Streams.domainEvents), `${infra.natsPrefix}_greetings`);
        return i.num_ack_pending === 0 && i.num_pending === 0 ? i : undefined;
      },
      SETTLES,
    );
    expect(settled.num_redelivered).toBe(0);
    expect(settled.delivered.consumer_seq).toBe(3);
  });
});

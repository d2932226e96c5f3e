import type { StreamMessage } from '@docintel/contracts';

export interface Delivery {
  deliveryCount: number;
  /** No redelivery follows if this one fails: the handler records the outcome now. */
  lastDelivery: boolean;
  /** Extends the ack deadline; call it during long work. */
  progress(): void;
}

/** A pipeline step's message handler: the class a @DurableWorker decorates. */
export interface DurableHandler<T extends object> {
  /** Resolves to ack; throws to retry (with back-off), or to dead-letter on the last delivery. */
  handle(payload: T, delivery: Delivery): Promise<void>;
  /** Called first on shutdown, to cut long work short before the consumers wait for their handlers. */
  interrupt?(): Promise<void> | void;
}

/** A number, or one read from the service's configuration (E, the env the runner holds). */
export type WorkerSetting<E = never> = number | ((env: E) => number);

export interface DurableWorkerOptions<T extends object, E = never> {
  /** The stream message consumed; every message is validated into its class before handle() sees it. */
  message: StreamMessage<T>;
  /** Durable consumer name, shared by every replica: each message goes to one of them. */
  durable: string;
  /** Messages one replica handles at once (default 1). */
  concurrency?: WorkerSetting<E>;
  /** Ack deadline of a delivery, extended by Delivery.progress() (default 60 s). */
  ackWaitMs?: WorkerSetting<E>;
  /** Messages fetched ahead per handler loop (default 4); their ack deadline runs while they wait. */
  maxMessages?: number;
  /**
   * A lane for large files: its deliveries take a turn of the replica's large-file work
   * (PIPELINE_LARGE_FILE_WORK at once, across every step), waiting with their deadline extended.
   */
  largeFiles?: boolean;
}

export const DURABLE_WORKER = Symbol('DURABLE_WORKER');

/**
 * Declares a provider as a durable JetStream worker of a pipeline step. DurableWorkers starts every
 * provider so marked when the application has bootstrapped (with PIPELINE_MAX_DELIVER deliveries and
 * the dead-letter subject after the last), and stops them before NATS drains on shutdown. The class
 * must handle the message's payload type.
 */
export function DurableWorker<T extends object, E = never>(options: DurableWorkerOptions<T, E>) {
  return <C extends abstract new (...args: never[]) => DurableHandler<T>>(target: C): void => {
    Reflect.defineMetadata(DURABLE_WORKER, options, target);
  };
}

/** The options a class was marked with; E is the runner's env, which the settings' functions read. */
export function durableWorkerOptions<E = never>(target: unknown): DurableWorkerOptions<object, E> | undefined {
  if (typeof target !== 'function') return undefined;
  return Reflect.getMetadata(DURABLE_WORKER, target) as DurableWorkerOptions<object, E> | undefined;
}

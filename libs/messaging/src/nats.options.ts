/** How a process reaches NATS, and the prefix that keeps its subjects and streams apart from others. */
export interface NatsOptions {
  url: string;
  prefix: string;
  /** Service name: the queue group of its handlers and the connection name seen in NATS monitoring. */
  service: string;
  rpcTimeoutMs: number;
  shutdownTimeoutMs: number;
}

export const NATS_OPTIONS = Symbol('NATS_OPTIONS');

/** Applies the deployment prefix to a subject (`a.b` -> `prefix.a.b`). */
export function prefixedSubject(prefix: string, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/** Applies the deployment prefix to a stream or consumer name (no dots allowed there). */
export function prefixedName(prefix: string, name: string): string {
  return prefix ? `${prefix}_${name}` : name;
}

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

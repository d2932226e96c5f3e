import type { MsgHdrs } from 'nats';
import type { HeaderReader, HeaderWriter } from '@docintel/observability';

/**
 * W3C trace context (traceparent, tracestate) travels in NATS headers beside x-request-id. A
 * message without them (an older sender, tracing off) is read as before and starts a new trace.
 */
export function traceHeaderReader(headers: () => MsgHdrs | undefined): HeaderReader {
  return (name) => {
    try {
      return headers()?.get(name) || undefined;
    } catch {
      return undefined; // unreadable headers: the request is still answered, in a new trace
    }
  };
}

export function traceHeaderWriter(headers: MsgHdrs): HeaderWriter {
  return (name, value) => headers.set(name, value);
}

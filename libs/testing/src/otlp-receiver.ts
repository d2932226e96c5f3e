import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as a test reads it: ids in lowercase hex, attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage?: string;
}

export const OtlpSpanKind = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}
interface ExportTraceServiceRequest {
  resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

/** OTLP/JSON gives ids as hex; a base64 one (the protobuf mapping) is converted. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

function plain(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributesOf(kvs: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

/**
 * A stand-in OpenTelemetry collector for tests: an OTLP/HTTP receiver on 127.0.0.1 that accepts
 * POST /v1/traces with a JSON body (what @opentelemetry/exporter-trace-otlp-http sends) and keeps
 * every span. Point OTEL_EXPORTER_OTLP_ENDPOINT at `url`. A protobuf body is refused with 415, so a
 * misconfigured exporter fails loudly instead of silently recording nothing.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received, and the content types they came with. */
  readonly requests: Array<{ contentType: string | undefined; spans: number }> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((req, res) => {
      void (async () => {
        if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        const contentType = req.headers['content-type'];
        if (!contentType?.startsWith('application/json')) {
          res.writeHead(415, { 'content-type': 'text/plain' }).end('this receiver takes OTLP/HTTP JSON only');
          return;
        }
        try {
          const request = JSON.parse((await body(req)).toString('utf8')) as ExportTraceServiceRequest;
          const received = receiver?.record(request) ?? 0;
          receiver?.requests.push({ contentType, spans: received });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch (err) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
        }
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  private record(request: ExportTraceServiceRequest): number {
    let n = 0;
    for (const rs of request.resourceSpans ?? []) {
      const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            name: s.name ?? '',
            kind: s.kind ?? 0,
            traceId: hexId(s.traceId),
            spanId: hexId(s.spanId),
            parentSpanId: hexId(s.parentSpanId),
            attributes: attributesOf(s.attributes),
            statusCode: s.status?.code ?? 0,
            statusMessage: s.status?.message,
          });
          n++;
        }
      }
    }
    return n;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Resolves with the first span that matches, waiting for exports up to `timeoutMs`. */
  async waitForSpan(match: (s: ReceivedSpan) => boolean, timeoutMs = 15_000, label = 'a matching span'): Promise<ReceivedSpan> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(match);
      if (found) return found;
      if (Date.now() > until) {
        const seen = this.spans.map((s) => `${s.service}: ${s.name}`).join('\n  ');
        throw new Error(`no span arrived for ${label} within ${timeoutMs} ms; received:\n  ${seen || '(none)'}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  clear(): void {
    this.spans.length = 0;
    this.requests.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

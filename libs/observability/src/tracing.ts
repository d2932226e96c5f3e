import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import {
  context,
  diag,
  DiagLogLevel,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type ContextManager,
  type DiagLogger,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import type { NodeTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { Logger } from 'pino';

/**
 * OpenTelemetry traces, off unless a service is started with an OTLP endpoint. While off, every
 * helper here returns at its first line (`tracer` is undefined) and nothing is added to messages,
 * so the request path pays one comparison. The SDK is only loaded when tracing starts.
 */

/**
 * The OTel context in an AsyncLocalStorage, as the SDK's own manager keeps it, plus `enter`: the
 * gateway's fastify hooks cannot wrap the rest of a request in a callback, so (as the request id
 * does, see enterRequestContext) they bind the span's context to the rest of the current async flow.
 */
class EnterableContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const callback = (thisArg == null ? fn : fn.bind(thisArg)) as (...args: A) => ReturnType<F>;
    return this.storage.run(ctx, callback, ...args);
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    const run = <R>(f: () => R): R => this.storage.run(ctx, f);
    return function (this: unknown, ...args: unknown[]) {
      return run(() => fn.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }

  enter(ctx: Context): void {
    this.storage.enterWith(ctx);
  }
}

let tracer: Tracer | undefined;
let provider: NodeTracerProvider | undefined;
let manager: EnterableContextManager | undefined;

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

export interface TracingSettings {
  /** service.name of every span (OTEL_SERVICE_NAME, else the app's name). */
  serviceName: string;
  /** Where spans are POSTed: the full OTLP/HTTP traces URL (see otlpTracesUrl). */
  url: string;
  /**
   * Tests only: where spans go instead of OTLP/HTTP. (Jest cannot run the OTLP exporter, which
   * loads node:http with a dynamic import; the e2e tests run it in the real processes.)
   */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Exports the spans ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and turns tracing off; waits at most `timeoutMs`. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * The traces URL the standard variables name: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else
 * OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces appended; undefined when neither is set.
 */
export function otlpTracesUrl(endpoint: string | undefined, tracesEndpoint: string | undefined): string | undefined {
  if (tracesEndpoint) return tracesEndpoint;
  if (!endpoint) return undefined;
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * The SDK's own warnings (a batch that could not be exported, a bad OTEL_* value) in the service
 * log. A receiver that is down fails every batch: the same message is logged once a minute.
 */
function diagLogger(logger: Logger): DiagLogger {
  const log = logger.child({ component: 'opentelemetry' });
  const lastLogged = new Map<string, number>();
  const at =
    (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: string, ...args: unknown[]): void => {
      const key = `${level}:${message.slice(0, 200)}`;
      const now = Date.now();
      if (now - (lastLogged.get(key) ?? -Infinity) < 60_000) return;
      if (lastLogged.size > 100) lastLogged.clear();
      lastLogged.set(key, now);
      log[level]({ details: args.length ? args.map((a) => (a instanceof Error ? a.message : a)) : undefined }, message);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), verbose: at('trace') };
}

/**
 * Sets up the process's tracer provider, once, before the application starts: spans are batched
 * (OTEL_BSP_* apply) and POSTed as OTLP/HTTP JSON to `settings.url`; the sampler comes from
 * OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on), resource
 * attributes from OTEL_RESOURCE_ATTRIBUTES; W3C trace context and baggage are propagated.
 */
export function startTracing(settings: TracingSettings, logger?: Logger): Tracing {
  if (provider) throw new Error('tracing is already started in this process');
  // Loaded here, not at the top: ~200 ms and ~6 MB that a process without tracing does not pay.
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  if (logger) diag.setLogger(diagLogger(logger), DiagLogLevel.WARN);
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: settings.serviceName,
        'service.namespace': 'docintel',
        'service.instance.id': `${hostname()}:${process.pid}`,
      }),
    )
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win, as the specification has it.
    .merge(detectResources({ detectors: [envDetector] }));
  const started = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(settings.exporter ?? new OTLPTraceExporter({ url: settings.url }))],
  });
  manager = new EnterableContextManager();
  started.register({ contextManager: manager });
  provider = started;
  tracer = started.getTracer('@docintel/observability');
  return {
    flush: () => started.forceFlush(),
    shutdown: (timeoutMs = 5000) => stopTracing(started, timeoutMs),
  };
}

async function stopTracing(stopping: NodeTracerProvider, timeoutMs: number): Promise<void> {
  if (provider !== stopping) return;
  tracer = undefined; // no new spans; those still open end into a provider that drops them
  provider = undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      stopping.shutdown(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
    // The API's globals outlive a provider; a later start (tests) registers afresh.
    trace.disable();
    context.disable();
    propagation.disable();
    diag.disable();
    manager = undefined;
  }
}

/** Reads one header of the message or request a span continues. */
export type HeaderReader = (name: string) => string | undefined;
/** Sets one header on an outgoing message. */
export type HeaderWriter = (name: string, value: string) => void;

const readerGetter: TextMapGetter<HeaderReader> = {
  keys: () => [],
  get: (read, key) => read(key),
};

const KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
} as const;

export interface StartSpanOptions {
  kind: keyof typeof KINDS;
  attributes?: Attributes;
  /**
   * The headers of the message or request this span handles: it continues the trace their W3C
   * traceparent names (a new trace without one). Without, the span is a child of the active one.
   */
  remoteParent?: HeaderReader;
}

/** A started span with what docintel does with one; see startSpan. */
export class TraceSpan {
  private ended = false;

  constructor(
    private readonly span: Span,
    private readonly ctx: Context,
  ) {}

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  get spanId(): string {
    return this.span.spanContext().spanId;
  }

  setAttributes(attributes: Attributes): void {
    this.span.setAttributes(attributes);
  }

  /** Marks the span failed (ERROR status), with the exception when there is one. */
  fail(message: string, err?: unknown): void {
    if (err instanceof Error) this.span.recordException(err);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  /** Writes W3C traceparent (and tracestate, baggage) naming this span into outgoing headers. */
  inject(write: HeaderWriter): void {
    propagation.inject(this.ctx, write, { set: (w, key, value) => w(key, value) });
  }

  /** Runs fn with this span active: spans started inside are its children. */
  run<T>(fn: () => T): T {
    return context.with(this.ctx, fn);
  }

  /** Makes this span the active one for the rest of the current async flow (hooks that cannot wrap). */
  enter(): void {
    manager?.enter(this.ctx);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }
}

/** Starts a span, or returns undefined at once when tracing is off. */
export function startSpan(name: string, opts: StartSpanOptions): TraceSpan | undefined {
  if (!tracer) return undefined;
  const parent = opts.remoteParent ? propagation.extract(ROOT_CONTEXT, opts.remoteParent, readerGetter) : context.active();
  const span = tracer.startSpan(name, { kind: KINDS[opts.kind], attributes: opts.attributes }, parent);
  return new TraceSpan(span, trace.setSpan(parent, span));
}

/**
 * Leaves no span active for the rest of the current async flow: a hook that enters a span for one
 * request clears it for the next request of the same connection that it does not trace.
 */
export function enterNoSpan(): void {
  manager?.enter(ROOT_CONTEXT);
}

/** fn inside the span when there is one, else just fn. */
export function runInSpan<T>(span: TraceSpan | undefined, fn: () => T): T {
  return span ? span.run(fn) : fn();
}

/** The ids of the active span, for log lines; undefined when tracing is off or no span is active. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!tracer) return undefined;
  const sc = trace.getSpanContext(context.active());
  return sc && isSpanContextValid(sc) ? { traceId: sc.traceId, spanId: sc.spanId } : undefined;
}

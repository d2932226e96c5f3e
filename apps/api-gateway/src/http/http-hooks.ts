import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { enterNoSpan, enterRequestContext, startSpan, tracingEnabled, type Metrics, type TraceSpan } from '@docintel/observability';

/** Probes and scrapes: measured, but not worth a trace every few seconds. */
const UNTRACED_ROUTES = new Set(['/health', '/health/ready', '/health/live', '/metrics']);

/**
 * Request ids on every request (taken from X-Request-Id when the client sends one), HTTP metrics
 * and, when tracing is on, a server span per request. Spans and metrics name the route template
 * (`/api/core/files/:id`), never the raw path: paths hold ids and transfer grants.
 */
export function installHttpHooks(app: NestFastifyApplication, metrics: Metrics): void {
  const fastify = app.getHttpAdapter().getInstance();
  const spans = new WeakMap<FastifyRequest, TraceSpan>();
  fastify.addHook('onRequest', (request, reply, done) => {
    enterRequestContext(String(request.id));
    void reply.header('x-request-id', request.id);
    const route = request.routeOptions.url;
    if (tracingEnabled() && (!route || !UNTRACED_ROUTES.has(route))) {
      const span = startSpan(route ? `${request.method} ${route}` : request.method, {
        kind: 'server',
        attributes: {
          'http.request.method': request.method,
          ...(route ? { 'http.route': route } : {}),
          'docintel.request_id': String(request.id),
        },
        // A client's traceparent is honoured, as any OTel-instrumented service does.
        remoteParent: (name) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value[0] : value;
        },
      });
      if (span) {
        span.enter(); // the controllers' RPC calls and publishes become its children
        spans.set(request, span);
      }
    } else if (tracingEnabled()) {
      enterNoSpan(); // a keep-alive connection's previous request must not lend it its span
    }
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.fail(`HTTP ${reply.statusCode}`);
      span.end();
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    // The client went away before the answer: the span ends here, as no onResponse may follow.
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ 'docintel.request_aborted': true });
      span.end();
    }
    done();
  });
}

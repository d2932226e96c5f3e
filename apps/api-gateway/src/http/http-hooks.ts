import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { enterRequestContext, type Metrics } from '@docintel/observability';

/** Request ids on every request (taken from X-Request-Id when the client sends one) and HTTP metrics. */
export function installHttpHooks(app: NestFastifyApplication, metrics: Metrics): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    enterRequestContext(String(request.id));
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

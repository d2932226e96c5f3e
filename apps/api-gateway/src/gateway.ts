import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { HealthPings, ServiceNames } from '@docintel/contracts';
import { LOGGER, Metrics } from '@docintel/observability';
import { serviceModule, type ServiceDefinition } from '@docintel/runtime';
import { AllErrorsFilter } from './errors/all-errors.filter';
import { GatewayEnv } from './gateway.env';
import { serveConsole } from './http/console';
import { installHttpHooks } from './http/http-hooks';
import { installJsonBodyParser } from './http/json-body';
import { serveOpenApi } from './http/openapi';
import { ContractValidationPipe } from './http/validation.pipe';
import { identityEntities } from './identity/identity.entities';
import { IdentityModule } from './identity/identity.module';
import { ItemsModule } from './items/items.module';
import { StorageTransferClient } from './items/storage-transfer.client';
import { registerTransferProxy } from './items/transfer-proxy';
import { migrations } from './migrations';
import { CollectionsController } from './collections/collections.controller';
import { FilesController } from './files/files.controller';
import { FindSimilarJobsController } from './jobs/find-similar.controller';
import { AgentJobsController } from './jobs/agent.controller';
import { ExtractionJobsController, QaJobsController } from './jobs/jobs.controllers';
import { MultiDimExtractionJobsController } from './jobs/multi-dim-extraction.controller';
import { ProvidersController } from './providers/providers.controller';
import { RulesController } from './rules/rules.controller';
import { SearchController } from './search/search.controller';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The gateway as a service: main.ts runs it, the OpenAPI exporter (cli/openapi.ts) documents it. */
export const gatewayDefinition: ServiceDefinition<GatewayEnv> = {
  service: ServiceNames.gateway,
  env: GatewayEnv,
  fastify: {
    // A client's X-Request-Id is kept when it is sane, so its logs and ours line up.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: Number(process.env.JSON_BODY_LIMIT) || 1024 * 1024,
    // Transfer grants (presigned LOCAL URLs) are path parameters of up to a few kilobytes.
    maxParamLength: 8192,
  },
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.gateway,
        ping: HealthPings.gateway,
        persistence: { schema: 'identity', entities: identityEntities, migrations },
        imports: [IdentityModule, ItemsModule],
        controllers: [
          ProvidersController,
          RulesController,
          FilesController,
          CollectionsController,
          QaJobsController,
          ExtractionJobsController,
          MultiDimExtractionJobsController,
          FindSimilarJobsController,
          AgentJobsController,
          SearchController,
        ],
        providers: [
          { provide: APP_FILTER, useClass: AllErrorsFilter },
          { provide: APP_PIPE, useClass: ContractValidationPipe },
        ],
      },
      env,
      logger,
    ),
  configure: async (app, env, logger) => {
    installHttpHooks(app, app.get(Metrics));
    // JSON bodies only (empty ones allowed, nesting capped); anything else but multipart gets 415.
    installJsonBodyParser(app, env.JSON_BODY_LIMIT);
    // Multipart file parts stream (no buffering, no temp files); the file size limit gives 413.
    await app.register(multipart as never, {
      limits: { fileSize: env.MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 25 },
      preservePath: true,
    });
    registerTransferProxy(app.getHttpAdapter().getInstance(), app.get(StorageTransferClient), app.get(LOGGER));
    serveOpenApi(app);
    // The web console at / (apps/console/dist), outside the bearer guard and the OpenAPI document.
    await serveConsole(app.getHttpAdapter().getInstance(), logger);
  },
};

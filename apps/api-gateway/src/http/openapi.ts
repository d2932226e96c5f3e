import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document, generated from the controllers and the contract DTOs. */
export function buildOpenApi(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('docintel API')
    .setDescription(
      'Document intelligence: storage providers, provider items, indexed files, collections, AI jobs and rules. ' +
        'Every operation needs `Authorization: Bearer <token>`; a user in several namespaces picks one with `X-Namespace`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Personal access token' }, 'TOKEN')
    .build();
  return SwaggerModule.createDocument(app, config);
}

export function serveOpenApi(app: NestFastifyApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApi(app), { jsonDocumentUrl: 'api/docs-json' });
}

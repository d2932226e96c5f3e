import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@docintel/config';
import { createLogger } from '@docintel/observability';
import type { ServiceDefinition, ServiceEnv } from '@docintel/runtime';
import { buildOpenApi } from '../http/openapi';

/*
 * Exports the gateway's OpenAPI document (the one GET /api/docs-json serves) to a file, without
 * Postgres or NATS: the gateway's root module is built by Nest in preview mode, which resolves the
 * module graph and the controllers' metadata but instantiates no provider, so no connection is
 * opened. The document is written canonically (keys sorted, two-space indentation) so that a diff
 * of the file is a diff of the API.
 *
 *   node apps/api-gateway/dist/cli/openapi.js [--out libs/api-client/openapi.json] [--check]
 */

const USAGE = `openapi: writes the gateway's OpenAPI document (as served at /api/docs-json)

  --out <file>   where to write it (default libs/api-client/openapi.json)
  --check        write nothing; exit 1 when the file differs from the controllers' document`;

export const DEFAULT_OUT = 'libs/api-client/openapi.json';

/** The document of a service definition, from a preview application (no provider instantiated). */
export async function buildGatewayOpenApi<E extends ServiceEnv>(def: ServiceDefinition<E>): Promise<OpenAPIObject> {
  // Defaults only: the document must not depend on the shell that runs the export.
  const env = loadConfig(def.env, {});
  const logger = createLogger(def.service, 'silent');
  const app = await NestFactory.create<NestFastifyApplication>(
    def.module(env, logger),
    new FastifyAdapter({ trustProxy: true, ...def.fastify }),
    { preview: true, logger: false, abortOnError: false },
  );
  try {
    return buildOpenApi(app);
  } finally {
    await app.close();
  }
}

const TOP_LEVEL = ['openapi', 'info', 'servers', 'security', 'tags', 'externalDocs', 'paths', 'webhooks', 'components'];

function sortKeys(value: unknown, order?: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v));
  if (value === null || typeof value !== 'object') return value;
  const rank = (k: string) => (order?.includes(k) ? order.indexOf(k) : order ? order.length : 0);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/**
 * The document as committed: object keys sorted (the usual top-level sections first), array order
 * kept (it carries meaning: parameters, enums, required), two-space indentation, final newline.
 */
export function canonicalOpenApiJson(doc: object): string {
  return `${JSON.stringify(sortKeys(doc, TOP_LEVEL), null, 2)}\n`;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = resolve(values.out ?? DEFAULT_OUT);
  // Loaded here, not at the top: the canonical form above is used (and unit-tested) without the gateway.
  const { gatewayDefinition } = await import('../gateway');
  const text = canonicalOpenApiJson(await buildGatewayOpenApi(gatewayDefinition));
  if (values.check) {
    let current = '';
    try {
      current = readFileSync(out, 'utf8');
    } catch {
      /* missing: differs */
    }
    if (current === text) return 0;
    process.stderr.write(`${out} differs from the gateway's controllers; run npm run openapi\n`);
    return 1;
  }
  writeFileSync(out, text);
  process.stdout.write(`wrote ${relative(process.cwd(), out)}\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`openapi: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}

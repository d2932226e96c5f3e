import 'reflect-metadata';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DomainError, ErrorCode } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { createLogger, LOGGER } from '@docintel/observability';
import { CollectionsController } from '../collections/collections.controller';
import { AllErrorsFilter } from '../errors/all-errors.filter';
import { ContractValidationPipe } from '../http/validation.pipe';
import { FilesController } from './files.controller';

/** The lists of IndexedFiles send the service's JSON bytes as the body, as Fastify would have serialised the object. */
describe('JSON passthrough of the file lists', () => {
  const ID = '00000000-0000-4000-8000-000000000000';
  const routes = [`/api/core/files?providerId=${ID}&page=0&pageSize=20`, `/api/core/collections/${ID}/files?page=0&pageSize=20`];
  const page = {
    data: [{ id: { id: ID }, name: 'Résumé "v2"\n😀', size: 1e21, owner: null }],
    totalPages: 1,
    totalElements: 1,
    hasNext: false,
  };
  const rpc = { call: jest.fn(), callJson: jest.fn() };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const ref = await Test.createTestingModule({
      controllers: [FilesController, CollectionsController],
      providers: [
        { provide: RpcClient, useValue: rpc },
        { provide: LOGGER, useValue: createLogger('api-gateway', 'silent') },
        { provide: APP_FILTER, useClass: AllErrorsFilter },
        { provide: APP_PIPE, useClass: ContractValidationPipe },
      ],
    }).compile();
    app = ref.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  it.each(routes)('GET %s answers 200 with the bytes unchanged, typed as Fastify types an object', async (url) => {
    const bytes = Buffer.from(JSON.stringify(page));
    rpc.callJson.mockResolvedValue(bytes);
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(rpc.call).not.toHaveBeenCalled();
  });

  it.each(routes)('GET %s maps a failure through the one error filter', async (url) => {
    rpc.callJson.mockRejectedValue(
      new DomainError(ErrorCode.FORBIDDEN, 'Provider not shared', [{ field: 'providerId', problem: 'not shared' }]),
    );
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Provider not shared',
      details: [{ field: 'providerId', problem: 'not shared' }],
    });
  });
});

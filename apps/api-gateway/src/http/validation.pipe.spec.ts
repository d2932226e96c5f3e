import 'reflect-metadata';
import { CreateCollectionRequestDto, DomainError, ErrorCode, ListCollectionsQueryDto, MAX_JSON_DEPTH } from '@docintel/contracts';
import { ContractValidationPipe } from './validation.pipe';

const NUL = 'must not contain the NUL character (U+0000)';

async function problems(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe(ErrorCode.VALIDATION_FAILED);
    return (err as DomainError).details;
  }
  throw new Error('expected the pipe to refuse the value');
}

describe('ContractValidationPipe', () => {
  const pipe = new ContractValidationPipe();

  it('validates into the DTO, naming a NUL query parameter', async () => {
    const q = await pipe.transform({ page: '1', q: 'trials' }, { type: 'query', metatype: ListCollectionsQueryDto });
    expect(q).toBeInstanceOf(ListCollectionsQueryDto);
    expect(await problems(() => pipe.transform({ q: 'a\u0000' }, { type: 'query', metatype: ListCollectionsQueryDto }))).toEqual([
      { field: 'q', problem: NUL },
    ]);
  });

  it('refuses a NUL in a value that has no DTO, naming the parameter', async () => {
    expect(await problems(() => pipe.transform('corpus\u0000parsing', { type: 'param', data: 'trigger_id', metatype: String }))).toEqual([
      { field: 'trigger_id', problem: NUL },
    ]);
    expect(await problems(() => pipe.transform({ filter: { mime_types: ['\u0000'] } }, { type: 'body', metatype: Object }))).toEqual([
      { field: 'filter.mime_types[0]', problem: NUL },
    ]);
    expect(await pipe.transform('corpus_parsing', { type: 'param', data: 'trigger_id', metatype: String })).toBe('corpus_parsing');
  });

  it('refuses a free-form body nested too deeply', async () => {
    let body: unknown = 1;
    for (let i = 0; i <= MAX_JSON_DEPTH; i++) body = [body];
    expect(await problems(() => pipe.transform(body, { type: 'body', metatype: Object }))).toEqual([
      { field: '(body)', problem: `is nested more than ${MAX_JSON_DEPTH} levels deep` },
    ]);
  });

  it('treats no body as an empty object for a DTO, so that required fields are named', async () => {
    const details = await problems(() => pipe.transform(undefined, { type: 'body', metatype: CreateCollectionRequestDto }));
    expect(details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
  });

  it('leaves custom parameters (the caller, the owner profile) alone', async () => {
    const caller = { userId: 'u\u0000' };
    expect(await pipe.transform(caller, { type: 'custom', metatype: Object })).toBe(caller);
  });
});

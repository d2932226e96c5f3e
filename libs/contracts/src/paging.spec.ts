import 'reflect-metadata';
import { DomainError } from './errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, PageQueryDto, toPage } from './paging';
import { ListProvidersQueryDto } from './providers';
import { validatePayload } from './validation';

describe('toPage', () => {
  it.each([
    // [totalElements, page, pageSize, totalPages, hasNext]
    [0, 0, 20, 0, false],
    [1, 0, 20, 1, false],
    [20, 0, 20, 1, false],
    [21, 0, 20, 2, true],
    [21, 1, 20, 2, false],
    [40, 0, 20, 2, true],
    [40, 1, 20, 2, false],
    [41, 1, 20, 3, true],
    [41, 2, 20, 3, false],
    [3, 1, 1, 3, true],
    [3, 2, 1, 3, false],
    [10, 7, 5, 2, false],
  ])('%i elements, page %i of size %i: %i pages, hasNext %p', (total, page, size, pages, hasNext) => {
    const data = ['a'];
    expect(toPage(data, total, page, size)).toEqual({ data, totalElements: total, totalPages: pages, hasNext });
  });
});

async function problemsOf(cls: new () => object, plain: object): Promise<Array<{ field: string; problem: string }>> {
  try {
    await validatePayload(cls, plain);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).details;
  }
  throw new Error('expected validation to fail');
}

describe('PageQueryDto', () => {
  it('defaults to the first page of 20, ascending', async () => {
    const q = await validatePayload(PageQueryDto, {});
    expect(q).toMatchObject({ page: 0, pageSize: DEFAULT_PAGE_SIZE, sortOrder: 'asc' });
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(q.q).toBeUndefined();
  });

  it('converts query-string numbers and accepts any case of the sort order', async () => {
    const q = await validatePayload(PageQueryDto, { page: '3', pageSize: String(MAX_PAGE_SIZE), sortOrder: 'DESC', q: 'report' });
    expect(q).toMatchObject({ page: 3, pageSize: MAX_PAGE_SIZE, sortOrder: 'desc', q: 'report' });
  });

  it.each([
    [{ page: '-1' }, 'page', 'must be 0 or greater'],
    [{ page: '1.5' }, 'page', 'must be an integer'],
    [{ page: 'first' }, 'page', 'must be an integer'],
    [{ pageSize: '0' }, 'pageSize', 'must be between 1 and 1000'],
    [{ pageSize: '1001' }, 'pageSize', 'must be between 1 and 1000'],
    [{ pageSize: 'many' }, 'pageSize', 'must be an integer'],
    [{ sortOrder: 'up' }, 'sortOrder', 'must be asc or desc'],
    [{ q: 'x'.repeat(201) }, 'q', 'must be at most 200 characters'],
    [{ q: ['a', 'b'] }, 'q', 'must be a string'],
  ])('rejects %p naming %s', async (plain, field, problem) => {
    const details = await problemsOf(PageQueryDto, plain);
    expect(details).toContainEqual({ field, problem });
    expect(new Set(details.map((d) => d.field))).toEqual(new Set([field]));
  });

  it.each([
    ['page', '9223372036854775808', `must be at most ${MAX_PAGE}`],
    ['page', '2147483648', `must be at most ${MAX_PAGE}`],
    ['page', '9'.repeat(400), `must be at most ${MAX_PAGE}`],
    ['pageSize', '9223372036854775808', 'must be between 1 and 1000'],
    ['page', '1e3', 'must be an integer'],
    ['page', '0x10', 'must be an integer'],
    ['page', ' 1', 'must be an integer'],
    ['page', '+1', 'must be an integer'],
    ['page', '', 'must be an integer'],
    ['pageSize', '1e3', 'must be an integer'],
    ['pageSize', '0x10', 'must be an integer'],
    ['pageSize', '0b11', 'must be an integer'],
    ['pageSize', '10.0', 'must be an integer'],
  ])('rejects %s=%p with one problem naming the field', async (field, value, problem) => {
    expect(await problemsOf(PageQueryDto, { [field]: value })).toEqual([{ field, problem }]);
  });

  it('accepts plain digits up to the largest page, so that page * pageSize stays exact', async () => {
    const q = await validatePayload(PageQueryDto, { page: String(MAX_PAGE), pageSize: '0001000' });
    expect(q).toMatchObject({ page: MAX_PAGE, pageSize: 1000 });
    expect(Number.isSafeInteger(q.page * q.pageSize)).toBe(true);
    expect(q.page * q.pageSize).toBeLessThan(2 ** 63);
  });

  it('takes numbers as they come in NATS payloads, within the same bounds', async () => {
    expect(await validatePayload(PageQueryDto, { page: 2, pageSize: 5 })).toMatchObject({ page: 2, pageSize: 5 });
    expect(await problemsOf(PageQueryDto, { page: 2 ** 63 })).toEqual([{ field: 'page', problem: `must be at most ${MAX_PAGE}` }]);
    expect(await problemsOf(PageQueryDto, { page: 1.5 })).toEqual([{ field: 'page', problem: 'must be an integer' }]);
    expect(await problemsOf(PageQueryDto, { pageSize: true })).toEqual([{ field: 'pageSize', problem: 'must be an integer' }]);
  });

  it('names every bad parameter at once', async () => {
    const details = await problemsOf(PageQueryDto, { page: '-1', pageSize: '0', sortOrder: 'sideways' });
    expect(new Set(details.map((d) => d.field))).toEqual(new Set(['page', 'pageSize', 'sortOrder']));
  });
});

describe('ListProvidersQueryDto', () => {
  it.each(['name', 'createdTime', 'type'])('accepts sortBy=%s', async (sortBy) => {
    expect((await validatePayload(ListProvidersQueryDto, { sortBy })).sortBy).toBe(sortBy);
  });

  it('rejects other sort fields, listing the allowed ones', async () => {
    expect(await problemsOf(ListProvidersQueryDto, { sortBy: 'size' })).toEqual([
      { field: 'sortBy', problem: 'must be one of name, createdTime, type' },
    ]);
  });
});

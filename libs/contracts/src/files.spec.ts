import 'reflect-metadata';
import {
  AddFileToCollectionRequestDto,
  CreateCollectionRequestDto,
  ListCollectionFilesQueryDto,
  ListCollectionsQueryDto,
  UpdateCollectionRequestDto,
} from './collections';
import { DomainError, type ErrorDetail } from './errors';
import {
  CreateFileRequestDto,
  CreateIndexedFileRequest,
  indexableKeyProblems,
  ListFilesQueryDto,
  ReindexQueryDto,
  SUPPORTED_EXTENSIONS,
} from './files';
import { DocumentQueryDto } from './nodes';
import { validatePayload } from './validation';

async function problemsOf(cls: new () => object, plain: object): Promise<ErrorDetail[]> {
  try {
    await validatePayload(cls, plain);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).details;
  }
  throw new Error('expected validation to fail');
}

const PROVIDER = '01a91a21-3136-4094-96da-ded4dce3824f';
const SUPPORTED = 'pdf, txt, html, htm, doc, docx, csv, xlsx, xls, ods, jpg, jpeg, png, webp, bmp, tiff, json, xml';

describe('CreateFileRequestDto', () => {
  it('supports exactly the 18 extensions of the interface', () => {
    expect([...SUPPORTED_EXTENSIONS].sort()).toEqual(SUPPORTED.split(', ').sort());
  });

  it.each(SUPPORTED_EXTENSIONS.flatMap((e) => [`docs/report.${e}`, `REPORT.${e.toUpperCase()}`]))('accepts %s', async (key) => {
    const dto = await validatePayload(CreateFileRequestDto, { providerId: PROVIDER, key });
    expect(dto).toEqual({ providerId: PROVIDER, key });
  });

  it('rejects a key ending in / naming the field', async () => {
    expect(await problemsOf(CreateFileRequestDto, { providerId: PROVIDER, key: 'docs/' })).toEqual([
      { field: 'key', problem: "must not end with '/' (it names a file)" },
    ]);
  });

  it.each([
    ['setup.exe', 'has the unsupported extension .exe'],
    ['archive.tar.gz', 'has the unsupported extension .gz'],
    ['notes.md', 'has the unsupported extension .md'],
    ['README', 'has no file extension'],
    ['folder/.pdf', 'has no file extension'],
  ])('rejects %s, listing the supported extensions', async (key, start) => {
    const [detail, ...rest] = await problemsOf(CreateFileRequestDto, { providerId: PROVIDER, key });
    expect(rest).toEqual([]);
    expect(detail.field).toBe('key');
    expect(detail.problem).toBe(`${start}; supported extensions: ${SUPPORTED}`);
  });

  it.each([
    [{ providerId: PROVIDER }, 'key'],
    [{ key: 'a.pdf' }, 'providerId'],
    [{ providerId: PROVIDER, key: '../etc/passwd.txt' }, 'key'],
    [{ providerId: PROVIDER, key: 42 }, 'key'],
  ])('rejects %p naming %s', async (plain, field) => {
    const details = await problemsOf(CreateFileRequestDto, plain);
    expect(new Set(details.map((d) => d.field))).toEqual(new Set([field]));
  });

  it('says a missing providerId is required, not that it is too long', async () => {
    expect(await problemsOf(CreateFileRequestDto, { key: 'a.pdf' })).toEqual([{ field: 'providerId', problem: 'is required' }]);
    const listing = await problemsOf(ListFilesQueryDto, { page: '0', pageSize: '10' });
    expect(listing).toEqual([{ field: 'providerId', problem: 'is required' }]);
  });

  it('needs the owner profile on the NATS payload', async () => {
    expect((await problemsOf(CreateIndexedFileRequest, { providerId: PROVIDER, key: 'a.pdf' })).map((d) => d.field)).toContain('owner');
    const ok = await validatePayload(CreateIndexedFileRequest, { providerId: PROVIDER, key: 'a.pdf', owner: { email: 'a@b.c' } });
    expect(ok.owner.email).toBe('a@b.c');
  });

  it('reports the problems of a key as details', () => {
    expect(indexableKeyProblems('x.pdf')).toEqual([]);
    expect(indexableKeyProblems('x.PDF', 'fileKey')).toEqual([]);
    expect(indexableKeyProblems('a//b.pdf', 'k')).toEqual([{ field: 'k', problem: 'must not contain empty path segments (//)' }]);
  });
});

describe('ListFilesQueryDto', () => {
  it('requires providerId, page and pageSize', async () => {
    const details = await problemsOf(ListFilesQueryDto, {});
    expect(new Set(details.map((d) => d.field))).toEqual(new Set(['providerId', 'page', 'pageSize']));
    expect(details).toContainEqual({ field: 'page', problem: 'is required' });
  });

  it('converts query-string numbers and accepts either case of the sort order', async () => {
    const q = await validatePayload(ListFilesQueryDto, {
      providerId: PROVIDER,
      page: '2',
      pageSize: '5',
      sortProperty: 'size',
      sortOrder: 'desc',
    });
    expect(q).toMatchObject({ providerId: PROVIDER, page: 2, pageSize: 5, sortProperty: 'size', sortOrder: 'DESC' });
  });

  it.each([
    [{ sortProperty: 'owner' }, 'sortProperty', 'must be one of name, path, createdTime, size'],
    [{ sortOrder: 'down' }, 'sortOrder', 'must be ASC or DESC'],
    [{ page: '-1' }, 'page', 'must be 0 or greater'],
    [{ pageSize: '0' }, 'pageSize', 'must be between 1 and 1000'],
    [{ page: '9223372036854775808' }, 'page', 'must be at most 2147483647'],
    [{ page: '1e3' }, 'page', 'must be an integer'],
    [{ pageSize: '1e3' }, 'pageSize', 'must be an integer'],
    [{ pageSize: '0x10' }, 'pageSize', 'must be an integer'],
    [{ providerId: 'a\u0000b' }, 'providerId', 'must not contain the NUL character (U+0000)'],
  ])('rejects %p naming %s', async (extra, field, problem) => {
    const details = await problemsOf(ListFilesQueryDto, { providerId: PROVIDER, page: '0', pageSize: '10', ...extra });
    expect(details).toEqual([{ field, problem }]);
  });
});

describe('ReindexQueryDto', () => {
  it.each([
    [{}, false],
    [{ reparse: 'true' }, true],
    [{ reparse: 'TRUE' }, true],
    [{ reparse: 'false' }, false],
  ])('reads %p as reparse=%p', async (plain, reparse) => {
    expect((await validatePayload(ReindexQueryDto, plain)).reparse).toBe(reparse);
  });

  it('rejects anything else', async () => {
    expect(await problemsOf(ReindexQueryDto, { reparse: 'yes' })).toEqual([{ field: 'reparse', problem: 'must be true or false' }]);
  });
});

describe('DocumentQueryDto', () => {
  it('defaults to json and accepts markdown and text in any case', async () => {
    expect((await validatePayload(DocumentQueryDto, {})).format).toBe('json');
    expect((await validatePayload(DocumentQueryDto, { format: 'Markdown' })).format).toBe('markdown');
    expect((await validatePayload(DocumentQueryDto, { format: 'text' })).format).toBe('text');
  });

  it('rejects other formats', async () => {
    expect(await problemsOf(DocumentQueryDto, { format: 'html' })).toEqual([
      { field: 'format', problem: 'must be one of json, markdown, text' },
    ]);
  });
});

describe('collection requests', () => {
  it('needs a non-empty name to create', async () => {
    expect(await problemsOf(CreateCollectionRequestDto, {})).toContainEqual({ field: 'name', problem: 'must be a string' });
    expect(await problemsOf(CreateCollectionRequestDto, { name: '' })).toEqual([{ field: 'name', problem: 'must not be empty' }]);
    expect(await validatePayload(CreateCollectionRequestDto, { name: 'Trials', icon: 'flask' })).toMatchObject({
      name: 'Trials',
      icon: 'flask',
    });
  });

  it('lets a patch carry any subset of fields, null clearing description and icon but not name', async () => {
    const empty = await validatePayload(UpdateCollectionRequestDto, {});
    expect(JSON.parse(JSON.stringify(empty))).toEqual({});
    const cleared = await validatePayload(UpdateCollectionRequestDto, { description: null, icon: null });
    expect(JSON.parse(JSON.stringify(cleared))).toEqual({ description: null, icon: null });
    expect(await problemsOf(UpdateCollectionRequestDto, { name: null })).toContainEqual({ field: 'name', problem: 'must be a string' });
    expect(await problemsOf(UpdateCollectionRequestDto, { name: '' })).toEqual([{ field: 'name', problem: 'must not be empty' }]);
  });

  it('sorts collections by name, createdTime or filesCount, and their files like GET /files', async () => {
    expect((await validatePayload(ListCollectionsQueryDto, { sortBy: 'filesCount' })).sortBy).toBe('filesCount');
    expect(await problemsOf(ListCollectionsQueryDto, { sortBy: 'size' })).toEqual([
      { field: 'sortBy', problem: 'must be one of name, createdTime, filesCount' },
    ]);
    expect((await validatePayload(ListCollectionFilesQueryDto, { sortBy: 'size', sortOrder: 'DESC' })).sortOrder).toBe('desc');
    expect(await problemsOf(ListCollectionFilesQueryDto, { sortBy: 'filesCount' })).toEqual([
      { field: 'sortBy', problem: 'must be one of name, path, createdTime, size' },
    ]);
  });

  it('needs a fileId to add a file', async () => {
    expect(await problemsOf(AddFileToCollectionRequestDto, {})).toContainEqual({ field: 'fileId', problem: 'must be a string' });
  });
});

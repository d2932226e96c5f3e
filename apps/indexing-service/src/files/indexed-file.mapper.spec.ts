import { randomUUID } from 'node:crypto';
import { toPage } from '@docintel/contracts';
import type { IndexedFileEntity } from '../indexation/indexed-file.entity';
import { indexedFilePageJson, toIndexedFileDto, type IndexedFileListRow } from './indexed-file.mapper';

/** An IndexedFile as the repository reads it; what JSON makes hard is in the name and the pipeline record. */
function fileEntity(overrides: Partial<IndexedFileEntity> = {}): IndexedFileEntity {
  return {
    id: randomUUID(),
    namespaceId: randomUUID(),
    providerId: randomUUID(),
    key: 'reports/Résumé "v2".pdf',
    name: 'Résumé "v2"\n😀 \u2028.pdf',
    extension: 'pdf',
    size: 1234,
    mediaType: 'application/pdf',
    checksum: null,
    providerName: 'Local storage',
    ownerId: randomUUID(),
    ownerEmail: 'alice@example.com',
    ownerFirstName: 'Alice',
    ownerLastName: 'Martin',
    ownerAvatarUrl: '',
    policyId: randomUUID(),
    createdTime: 1764260000123,
    status: 'SUCCESS',
    errorMessage: null,
    indexed: true,
    matchComputed: false,
    title: null,
    authors: null,
    description: 'back\\slash </script>',
    additionalInfo: { passages: { status: 'SUCCESS', count: 12, ratio: 0.25, steps: [1, 2], note: 'a "quote"' }, '10': null },
    ...overrides,
  } as IndexedFileEntity;
}

/** The row the listing reads for the same file, its pipeline record printed as Postgres prints jsonb (spaced). */
function listRow(f: IndexedFileEntity): IndexedFileListRow {
  const spaced = JSON.stringify(f.additionalInfo, null, 1).replace(/\n */g, ' ');
  return { ...f, additionalInfoJson: spaced };
}

describe('indexedFilePageJson', () => {
  it('is the JSON of the page of DTOs, with every field and the page counts', () => {
    const files = [
      fileEntity(),
      fileEntity({ title: 'A title', size: null, additionalInfo: {} }),
      fileEntity({ status: 'FAILED', errorMessage: 'broken' }),
    ];
    const json = indexedFilePageJson(files.map(listRow), 43, 1, 3).toString('utf8');
    expect(JSON.parse(json)).toEqual(toPage(files.map(toIndexedFileDto), 43, 1, 3));
    expect(JSON.parse(json)).toMatchObject({ totalPages: 15, totalElements: 43, hasNext: true });
  });

  it('sends the properties in the order the DTO has them, byte for byte when the record is compact', () => {
    const files = [fileEntity(), fileEntity()];
    const rows = files.map((f) => ({ ...f, additionalInfoJson: JSON.stringify(f.additionalInfo) }));
    expect(indexedFilePageJson(rows, 2, 0, 20).toString('utf8')).toBe(JSON.stringify(toPage(files.map(toIndexedFileDto), 2, 0, 20)));
  });

  it('answers an empty page past the end with the total', () => {
    expect(JSON.parse(indexedFilePageJson([], 5, 3, 2).toString('utf8'))).toEqual({
      data: [],
      totalPages: 3,
      totalElements: 5,
      hasNext: false,
    });
  });
});

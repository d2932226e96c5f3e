import { entityId, toPage, type IndexedFileDto, type Page } from '@docintel/contracts';
import type { JsonBytes } from '@docintel/messaging';
import type { IndexedFileEntity } from '../indexation/indexed-file.entity';

/** The fields of an IndexedFile the API shows, besides its pipeline record. */
export type IndexedFileShownFields = Pick<
  IndexedFileEntity,
  | 'id'
  | 'createdTime'
  | 'ownerId'
  | 'policyId'
  | 'providerId'
  | 'name'
  | 'key'
  | 'size'
  | 'checksum'
  | 'mediaType'
  | 'extension'
  | 'indexed'
  | 'matchComputed'
  | 'title'
  | 'status'
  | 'errorMessage'
  | 'ownerFirstName'
  | 'ownerLastName'
  | 'ownerEmail'
  | 'ownerAvatarUrl'
  | 'providerName'
  | 'description'
  | 'authors'
>;

/** A file of a listed page as FilesRepository reads it: the shown fields, and the pipeline record as the JSON text Postgres prints. */
export type IndexedFileListRow = IndexedFileShownFields & { additionalInfoJson: string };

/** The DTO's properties before additionalInfo/additionalInfos, in the order the API has always sent them. */
function leading(f: IndexedFileShownFields) {
  return {
    id: entityId(f.id, 'FILE'),
    createdTime: f.createdTime,
    owner: { id: f.ownerId },
    policy: entityId(f.policyId, 'POLICY'),
    providerId: entityId(f.providerId, 'PROVIDER'),
    name: f.name,
    path: f.key,
    key: f.key,
    size: f.size,
    checksum: f.checksum,
    mediaType: f.mediaType,
    extension: f.extension,
    indexed: f.indexed,
    matchComputed: f.matchComputed,
    displayName: f.title || f.name,
    dbName: f.name,
    lastIndexationInfos: { status: f.status, errorMessage: f.errorMessage, errorTraceback: null },
    ownerFirstName: f.ownerFirstName,
    ownerLastName: f.ownerLastName,
    ownerEmail: f.ownerEmail,
    ownerAvatarUrl: f.ownerAvatarUrl,
    providerName: f.providerName,
  };
}

/** The DTO's properties after additionalInfo/additionalInfos. */
function trailing(f: IndexedFileShownFields) {
  return { description: f.description, authors: f.authors, title: f.title, lastMergeJob: null, type: 'FILE' as const };
}

/** The IndexedFile as the API shows it. */
export function toIndexedFileDto(f: IndexedFileEntity): IndexedFileDto {
  return { ...leading(f), additionalInfo: f.additionalInfo, additionalInfos: f.additionalInfo, ...trailing(f) };
}

/**
 * A page of IndexedFiles as the JSON the API sends, the same document as
 * toPage(files.map(toIndexedFileDto)) serialised. The pipeline record, most of a page's bytes and
 * sent twice per file, goes in as the text Postgres printed, never parsed into objects and
 * serialised again: that parse and stringify were the largest share of a list request's CPU in
 * indexing-service.
 */
export function indexedFilePageJson(
  rows: IndexedFileListRow[],
  total: number,
  page: number,
  pageSize: number,
): JsonBytes<Page<IndexedFileDto>> {
  const files = rows.map((f) => {
    const before = JSON.stringify(leading(f));
    const after = JSON.stringify(trailing(f));
    const info = f.additionalInfoJson;
    return `${before.slice(0, -1)},"additionalInfo":${info},"additionalInfos":${info},${after.slice(1)}`;
  });
  const { data: _data, ...counts } = toPage([], total, page, pageSize);
  return Buffer.from(`{"data":[${files.join(',')}],${JSON.stringify(counts).slice(1)}`);
}

import { entityId, type IndexedFileDto } from '@docintel/contracts';
import type { IndexedFileEntity } from './indexed-file.entity';

/** The IndexedFile as the API shows it. */
export function toIndexedFileDto(f: IndexedFileEntity): IndexedFileDto {
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
    additionalInfo: f.additionalInfo,
    additionalInfos: f.additionalInfo,
    description: f.description,
    authors: f.authors,
    title: f.title,
    lastMergeJob: null,
    type: 'FILE',
  };
}

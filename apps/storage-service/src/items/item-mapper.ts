import { lookup } from 'mime-types';
import { hasControlCharacters, keyExtension, type ProviderItemDto } from '@docintel/contracts';
import type { StoredEntry } from '@docintel/storage';

/** Content types that say nothing about the bytes: the extension tells more. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', '']);

/**
 * A file's media type: the one the backend stored when it says something, else from the
 * extension. A stored type with control characters (written into the bucket by something other
 * than docintel) is not passed on: it would become a response header.
 */
export function mediaTypeOf(key: string, stored?: string | null): string {
  if (stored && !GENERIC_TYPES.has(stored.toLowerCase()) && !hasControlCharacters(stored)) return stored;
  return lookup(key) || 'application/octet-stream';
}

/** The API's view of a stored entry. Folders carry no size, extension or media type. */
export function toProviderItem(providerId: string, entry: StoredEntry): ProviderItemDto {
  if (entry.type === 'FOLDER') {
    return { providerId, key: entry.key, type: 'FOLDER', size: null, extension: null, mediaType: null, lastModified: entry.lastModified };
  }
  return {
    providerId,
    key: entry.key,
    type: 'FILE',
    size: entry.size,
    extension: keyExtension(entry.key),
    mediaType: mediaTypeOf(entry.key, entry.contentType),
    lastModified: entry.lastModified,
  };
}

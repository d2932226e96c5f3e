import { clientFetch, type DocintelClient } from './client';
import { DocintelApiError, unwrap } from './errors';
import type { ProviderItem } from './types';

/** File content: a Blob (a browser File included), bytes or text. */
export type UploadBody = Blob | ArrayBuffer | ArrayBufferView | string;

export interface UploadInput {
  providerId: string;
  /** The file's full key, `path/to/file.ext` (not ending in `/`). */
  key: string;
  body: UploadBody;
  /** Media type of the content; a Blob's own type otherwise. */
  mediaType?: string;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** When the provider cannot presign (`supported: false`), upload through the multipart endpoint instead (default true). */
  multipartFallback?: boolean;
}

type BlobPart = NonNullable<ConstructorParameters<typeof Blob>[0]>[number];

function toBlob(body: UploadBody, mediaType?: string): Blob {
  if (body instanceof Blob && (!mediaType || body.type === mediaType)) return body;
  return new Blob([body as BlobPart], mediaType ? { type: mediaType } : {});
}

function splitKey(key: string): { directory: string; name: string } {
  const slash = key.lastIndexOf('/');
  return { directory: key.slice(0, slash + 1), name: key.slice(slash + 1) };
}

/**
 * The presigned upload flow: ask for an upload URL, PUT the bytes there (straight to the storage
 * backend, without the bearer token, with the media type as Content-Type), then confirm so the
 * file is listed; resolves with the confirmed item. A provider that answers `supported: false`
 * gets the multipart upload instead, as the interface says, unless `multipartFallback` is false.
 */
export async function uploadViaPresignedUrl(api: DocintelClient, input: UploadInput, options: UploadOptions = {}): Promise<ProviderItem> {
  const { signal } = options;
  const blob = toBlob(input.body, input.mediaType);
  const mediaType = input.mediaType ?? (blob.type || undefined);
  const path = { providerId: input.providerId };
  const target = await unwrap(
    api.POST('/api/core/providers/{providerId}/items/upload-url', {
      params: { path },
      body: { key: input.key, size: blob.size, ...(mediaType ? { mediaType } : {}) },
      signal,
    }),
  );
  if (!target.supported || !target.url) {
    if (options.multipartFallback === false) {
      throw new Error(`Provider ${input.providerId} does not support presigned uploads`);
    }
    return uploadMultipart(api, { ...input, body: blob, mediaType }, { signal });
  }
  // A URL signed for a media type (S3) only takes that Content-Type.
  const put = await clientFetch(api)(
    new Request(target.url, { method: 'PUT', body: blob, headers: { 'content-type': mediaType ?? 'application/octet-stream' }, signal }),
  );
  if (!put.ok) throw await DocintelApiError.fromResponse(put);
  await put.body?.cancel();
  return unwrap(api.POST('/api/core/providers/{providerId}/items/confirm', { params: { path }, body: { key: input.key }, signal }));
}

/** Uploads through the gateway (multipart, part `file`) into the key's folder; resolves with the item. */
export async function uploadMultipart(
  api: DocintelClient,
  input: UploadInput,
  options: Pick<UploadOptions, 'signal'> = {},
): Promise<ProviderItem> {
  const { directory, name } = splitKey(input.key);
  const blob = toBlob(input.body, input.mediaType);
  const form = new FormData();
  form.append('file', blob, name);
  return unwrap(
    api.POST('/api/core/providers/{providerId}/items', {
      params: { path: { providerId: input.providerId }, query: { key: directory } },
      body: { file: blob },
      // openapi-fetch sends FormData as it is, and lets fetch write the multipart Content-Type.
      bodySerializer: () => form,
      signal: options.signal,
    }),
  );
}

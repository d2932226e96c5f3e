import { DocintelApiError, type Credentials, type ProviderItem } from './client';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Uploads a file into a directory of a provider through the multipart endpoint
 * (POST /api/core/providers/{id}/items?key=<dir>, part `file`), with XMLHttpRequest because fetch
 * reports no upload progress. This is the console's only request not made through the generated
 * client (docs/console.md says why multipart rather than a presigned URL). Abort with `signal`.
 */
export function uploadFile(
  credentials: Credentials,
  providerId: string,
  dir: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<ProviderItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const url = `/api/core/providers/${encodeURIComponent(providerId)}/items?key=${encodeURIComponent(dir)}`;
    xhr.open('POST', url);
    xhr.setRequestHeader('Authorization', `Bearer ${credentials.token}`);
    if (credentials.namespace) xhr.setRequestHeader('X-Namespace', credentials.namespace);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the text is the message */
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress({ loaded: file.size, total: file.size });
        resolve(body as ProviderItem);
      } else {
        const headers = new Headers();
        const requestId = xhr.getResponseHeader('x-request-id');
        if (requestId) headers.set('x-request-id', requestId);
        reject(DocintelApiError.from(new Response(null, { status: xhr.status, statusText: xhr.statusText, headers }), body));
      }
    };
    xhr.onerror = () => reject(new TypeError('network error during the upload'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

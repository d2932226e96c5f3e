import type { ErrorDetail } from './errors';

/** Longest item key accepted, in UTF-8 bytes (S3's own limit is 1024). */
export const MAX_KEY_BYTES = 1024;
/** Longest single path segment (a file or folder name), in UTF-8 bytes. */
export const MAX_SEGMENT_BYTES = 255;

/**
 * What a key must be where it is used:
 * - `directory`: a listing or upload target: '' (the root) or a folder key ending in '/';
 * - `folder`: a folder to create: ends in '/', not empty;
 * - `file`: a file: does not end in '/';
 * - `item`: either a file or a folder (delete, rename).
 */
export type KeyKind = 'directory' | 'folder' | 'file' | 'item';

/** C0 controls (NUL, TAB, CR, LF, ...), DEL and the C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The folder at the top of every provider (and of every namespace's part of it) where uploads in
 * progress are staged. No key may name it or anything under it, in any letter case (case-insensitive
 * file systems): it is never listed, read, written or presigned.
 */
export const RESERVED_STAGING_DIR = '.docintel-staging';

/** Whether a string holds a control character (C0, DEL or C1): CR and LF included. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

/**
 * A directory key as clients may spell it: `/` (what clients of the reference API send for the
 * root) means the root, exactly as `''` or no key does. Every other key is kept as it is.
 */
export function normalizeDirectoryKey(key: string | undefined | null): string {
  return key === undefined || key === null || key === '/' ? '' : key;
}

/**
 * Checks a provider item key; returns the problems (empty when the key is valid). Keys are
 * relative, '/'-separated, without '.', '..' or empty segments, backslashes or control characters,
 * so that no key can address anything outside its provider.
 */
export function keyProblems(key: unknown, kind: KeyKind, field = 'key'): ErrorDetail[] {
  const problem = (p: string): ErrorDetail[] => [{ field, problem: p }];
  if (typeof key !== 'string') return problem('must be a string');
  if (key === '') return kind === 'directory' ? [] : problem('must not be empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return problem(`must be at most ${MAX_KEY_BYTES} bytes`);
  if (CONTROL.test(key)) return problem('must not contain control characters or NUL');
  if (key.includes('\\')) return problem('must not contain backslashes; use / between folders');
  if (key.startsWith('/')) return problem('must be relative (no leading /)');
  const isFolder = key.endsWith('/');
  if ((kind === 'directory' || kind === 'folder') && !isFolder) return problem("must end with '/' (a folder key) or be empty for the root");
  if (kind === 'folder' && !isFolder) return problem("must end with '/'");
  if (kind === 'file' && isFolder) return problem("must not end with '/' (it names a file)");
  const segments = (isFolder ? key.slice(0, -1) : key).split('/');
  if (segments[0].toLowerCase() === RESERVED_STAGING_DIR) {
    return problem(`must not name ${RESERVED_STAGING_DIR}/, which is reserved for uploads in progress`);
  }
  for (const s of segments) {
    if (s === '') return problem('must not contain empty path segments (//)');
    if (s === '.' || s === '..') return problem("must not contain '.' or '..' segments");
    if (Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES) return problem(`has a name longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  return [];
}

/** The file name (last segment) of a key, without a trailing '/'. */
export function keyName(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The directory a key lives in: '' for the root, else ending in '/'. */
export function keyParent(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  const i = trimmed.lastIndexOf('/');
  return i < 0 ? '' : trimmed.slice(0, i + 1);
}

/** Lower-case extension of a file key without the dot, or '' when it has none. */
export function keyExtension(key: string): string {
  const name = keyName(key);
  const i = name.lastIndexOf('.');
  return i <= 0 ? '' : name.slice(i + 1).toLowerCase();
}

/** Longest media type accepted (upload-url `mediaType`, a multipart part's Content-Type). */
export const MAX_MEDIA_TYPE_LENGTH = 255;

/**
 * Checks a media type a client gives for a file (it becomes the stored Content-Type, a header):
 * no control characters, CR and LF included, and at most 255 characters.
 */
export function mediaTypeProblems(value: unknown, field = 'mediaType'): ErrorDetail[] {
  if (typeof value !== 'string') return [{ field, problem: 'must be a string' }];
  if (CONTROL.test(value)) return [{ field, problem: 'must not contain control characters (such as CR or LF)' }];
  if (value.length > MAX_MEDIA_TYPE_LENGTH) return [{ field, problem: `must be at most ${MAX_MEDIA_TYPE_LENGTH} characters` }];
  return [];
}

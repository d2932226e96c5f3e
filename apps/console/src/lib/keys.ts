/** Provider item keys: `a/b/file.txt` for files, `a/b/` for folders, `''` for the root. */

/** The last segment of a key, without the trailing slash of a folder. */
export function nameOf(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The directory a key is in: `a/b/` for `a/b/c.txt` and for `a/b/c/`, `''` at the top. */
export function parentOf(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
}

export interface Crumb {
  label: string;
  /** The directory key to list. */
  key: string;
}

/** Root, then each folder down to `dir` (a directory key: `''` or ending in `/`). */
export function breadcrumbs(dir: string, rootLabel: string): Crumb[] {
  const crumbs: Crumb[] = [{ label: rootLabel, key: '' }];
  let key = '';
  for (const segment of dir.split('/').filter(Boolean)) {
    key += `${segment}/`;
    crumbs.push({ label: segment, key });
  }
  return crumbs;
}

/** The directory key of a listing from a URL's `key` (`/` and absent mean the root). */
export function normalizeDir(key: string | null | undefined): string {
  if (!key || key === '/') return '';
  return key.endsWith('/') ? key : `${key}/`;
}

/**
 * Why a new file or folder name cannot be used, or null. The service checks keys fully (and says
 * why in its 400); this only catches what a person is likely to type by mistake.
 */
export function nameProblem(name: string): string | null {
  if (!name.trim()) return 'Enter a name';
  if (name.includes('/')) return 'A name cannot contain /';
  if (name.includes('\\')) return 'A name cannot contain \\';
  if (name === '.' || name === '..') return 'This name is reserved';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'A name cannot contain control characters';
  return null;
}

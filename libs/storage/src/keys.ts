import { keyName, keyProblems, type KeyKind } from '@docintel/contracts';
import { StorageInvalidKeyError } from './driver';

/** Re-checks a key inside the driver: defence in depth, so a caller's slip cannot escape the root. */
export function assertKey(key: string, kind: KeyKind): void {
  const problems = keyProblems(key, kind);
  if (problems.length) throw new StorageInvalidKeyError(key, problems[0].problem);
}

/** Ascending byte order of the UTF-8 keys (what S3 uses), not JavaScript's UTF-16 order. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Case-insensitive substring match on the item's name (last segment, without a trailing '/'). */
export function nameMatches(key: string, nameContains: string | undefined): boolean {
  if (!nameContains) return true;
  return keyName(key).toLowerCase().includes(nameContains.toLowerCase());
}

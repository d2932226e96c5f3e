import { keyProblems, mediaTypeProblems, normalizeDirectoryKey, RESERVED_STAGING_DIR } from './item-keys';

describe('keyProblems', () => {
  it('refuses every key in the reserved staging folder, in any letter case and for every kind', () => {
    for (const [key, kind] of [
      [`${RESERVED_STAGING_DIR}/x.part`, 'file'],
      [`${RESERVED_STAGING_DIR}`, 'file'],
      [`${RESERVED_STAGING_DIR}/`, 'directory'],
      [`${RESERVED_STAGING_DIR}/a/`, 'folder'],
      [`${RESERVED_STAGING_DIR.toUpperCase()}/x`, 'item'],
    ] as const) {
      expect(keyProblems(key, kind)).toEqual([{ field: 'key', problem: expect.stringContaining('reserved for uploads in progress') }]);
    }
    // Only at the top: a folder of that name deeper down is an ordinary folder.
    expect(keyProblems(`a/${RESERVED_STAGING_DIR}/x.txt`, 'file')).toEqual([]);
    expect(keyProblems(`${RESERVED_STAGING_DIR}-not/x.txt`, 'file')).toEqual([]);
  });

  it('refuses C0, DEL and C1 control characters', () => {
    for (const c of ['\r', '\n', '\t', '\u0000', '\u007f', '\u0085', '\u009f']) {
      expect(keyProblems(`a${c}b.txt`, 'file')).toEqual([{ field: 'key', problem: expect.stringContaining('control characters') }]);
    }
    expect(keyProblems('Zürich résumé.txt', 'file')).toEqual([]);
  });
});

describe('normalizeDirectoryKey', () => {
  it("takes '/' (and no key) for the root, and leaves every other key as it is", () => {
    expect(normalizeDirectoryKey('/')).toBe('');
    expect(normalizeDirectoryKey('')).toBe('');
    expect(normalizeDirectoryKey(undefined)).toBe('');
    expect(normalizeDirectoryKey('a/')).toBe('a/');
    expect(normalizeDirectoryKey('//')).toBe('//');
    expect(normalizeDirectoryKey('/a/')).toBe('/a/');
  });
});

describe('mediaTypeProblems', () => {
  it('accepts media types with parameters, and names the field for control characters or excess length', () => {
    expect(mediaTypeProblems('text/plain; charset=utf-8')).toEqual([]);
    for (const bad of ['text/plain\r\nX-Injected: 1', 'text/plain\n', 'a\u0000b', 'text/\u0085plain', 'text/plain\t']) {
      expect(mediaTypeProblems(bad)).toEqual([{ field: 'mediaType', problem: expect.stringContaining('control characters') }]);
    }
    expect(mediaTypeProblems('x'.repeat(256), 'file')).toEqual([{ field: 'file', problem: 'must be at most 255 characters' }]);
  });
});

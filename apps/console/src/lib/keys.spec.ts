import { breadcrumbs, nameOf, nameProblem, normalizeDir, parentOf } from './keys';

describe('provider item keys', () => {
  it('names files and folders by their last segment', () => {
    expect(nameOf('a/b/report.pdf')).toBe('report.pdf');
    expect(nameOf('a/b/')).toBe('b');
    expect(nameOf('top.txt')).toBe('top.txt');
  });

  it('finds the directory an item is in', () => {
    expect(parentOf('a/b/report.pdf')).toBe('a/b/');
    expect(parentOf('a/b/')).toBe('a/');
    expect(parentOf('a/')).toBe('');
    expect(parentOf('top.txt')).toBe('');
  });

  it('makes breadcrumbs from the root down', () => {
    expect(breadcrumbs('', 'Local')).toEqual([{ label: 'Local', key: '' }]);
    expect(breadcrumbs('a/b c/', 'Local')).toEqual([
      { label: 'Local', key: '' },
      { label: 'a', key: 'a/' },
      { label: 'b c', key: 'a/b c/' },
    ]);
  });

  it('reads a directory key from the URL', () => {
    expect(normalizeDir(null)).toBe('');
    expect(normalizeDir('/')).toBe('');
    expect(normalizeDir('a/b')).toBe('a/b/');
    expect(normalizeDir('a/b/')).toBe('a/b/');
  });

  it('catches names that cannot be a key segment', () => {
    expect(nameProblem('report 2024.pdf')).toBeNull();
    expect(nameProblem(' ')).toMatch(/Enter/);
    expect(nameProblem('a/b')).toMatch(/\//);
    expect(nameProblem('..')).toMatch(/reserved/);
    expect(nameProblem('a\nb')).toMatch(/control/);
  });
});

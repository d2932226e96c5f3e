import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadProviderCatalog, publicConfig, stableProviderId } from './provider-config';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('publicConfig', () => {
  it('shows only the name of a LOCAL provider, never its root directory', () => {
    expect(publicConfig('LOCAL', { root: '/srv/secret/docs', name: 'docs' })).toEqual({ type: 'LOCAL', name: 'docs' });
  });

  it('shows bucket and region of an S3 provider, never credentials or endpoint', () => {
    const settings = {
      bucketName: 'papers',
      region: 'eu-west-3',
      endpoint: 'http://minio.internal:9000',
      accessKey: 'AKIAEXAMPLE',
      secretKey: 'wJalrXUtnFEMI/K7MDENG',
      sessionToken: 'FwoGZXIvYXdzE',
      pathStyle: true,
    };
    const shown = publicConfig('S3', settings);
    expect(shown).toEqual({ type: 'S3', bucketName: 'papers', region: 'eu-west-3' });
    const text = JSON.stringify(shown);
    for (const secret of ['AKIAEXAMPLE', 'wJalrXUtnFEMI', 'FwoGZXIvYXdzE', 'minio.internal']) expect(text).not.toContain(secret);
  });

  it('leaves out public keys that are not set', () => {
    expect(publicConfig('S3', { bucketName: 'b' })).toEqual({ type: 'S3', bucketName: 'b' });
  });
});

describe('stableProviderId', () => {
  it('derives the same UUID from the same name', () => {
    expect(stableProviderId('Local storage')).toBe(stableProviderId('Local storage'));
    expect(stableProviderId('Local storage')).toMatch(UUID_V5);
  });

  it('derives different ids from different names', () => {
    const ids = new Set(['a', 'b', 'A', 'Local storage', 'Local storage '].map(stableProviderId));
    expect(ids.size).toBe(5);
  });
});

describe('loadProviderCatalog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'providers-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  const failureOf = (file: string): string => {
    try {
      loadProviderCatalog(file, '/unused');
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('expected the catalogue to be rejected');
  };

  it('without a file, offers one LOCAL provider at the default root', () => {
    const catalog = loadProviderCatalog(undefined, './data/storage');
    expect(catalog).toEqual([
      {
        id: stableProviderId('Local storage'),
        name: 'Local storage',
        type: 'LOCAL',
        icon: 'folder',
        namespaces: null,
        settings: { root: resolve('./data/storage'), name: 'storage' },
      },
    ]);
  });

  it('reads a YAML file, resolving LOCAL roots against the file directory', () => {
    const file = write(
      'providers.yaml',
      [
        'providers:',
        '  - name: Team docs',
        '    type: LOCAL',
        '    root: ./team',
        '    icon: books',
        '    namespaces: [acme]',
        '  - id: 7d444840-9dc0-11d1-b245-5ffdce74fad2',
        '    name: Archive',
        '    type: S3',
        '    bucketName: archive',
        '    endpoint: http://127.0.0.1:9000',
        '    accessKey: AK',
        '    secretKey: SK',
        '  - name: Absolute',
        '    type: LOCAL',
        '    root: /var/lib/docs',
      ].join('\n'),
    );
    const [team, archive, absolute] = loadProviderCatalog(file, '/unused');
    expect(team).toEqual({
      id: stableProviderId('Team docs'),
      name: 'Team docs',
      type: 'LOCAL',
      icon: 'books',
      namespaces: ['acme'],
      settings: { root: join(dir, 'team'), name: 'team' },
    });
    expect(archive).toMatchObject({
      id: '7d444840-9dc0-11d1-b245-5ffdce74fad2',
      name: 'Archive',
      type: 'S3',
      icon: null,
      namespaces: null,
      settings: { bucketName: 'archive', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', accessKey: 'AK', secretKey: 'SK' },
    });
    expect(absolute.settings).toEqual({ root: '/var/lib/docs', name: 'docs' });
  });

  it('reads a JSON file', () => {
    const file = write('providers.json', JSON.stringify({ providers: [{ name: 'S', type: 'S3', bucketName: 'b', region: 'eu-west-1' }] }));
    expect(loadProviderCatalog(file, '/unused')).toEqual([
      {
        id: stableProviderId('S'),
        name: 'S',
        type: 'S3',
        icon: null,
        namespaces: null,
        settings: { bucketName: 'b', region: 'eu-west-1' },
      },
    ]);
  });

  it('lists every problem of an invalid file, with the path of each field', () => {
    const file = write(
      'bad.yaml',
      [
        'providers:',
        '  - name: ""',
        '    type: FTP',
        '  - name: No root',
        '    type: LOCAL',
        '  - name: No bucket',
        '    type: S3',
        '    endpoint: not a url',
        '  - name: Nobody',
        '    type: LOCAL',
        '    root: ./x',
        '    namespaces: []',
        '    id: 42',
      ].join('\n'),
    );
    const message = failureOf(file);
    expect(message).toContain(`PROVIDERS_FILE ${file} is invalid`);
    for (const expected of [
      'providers.0.name: must be longer than or equal to 1 characters',
      'providers.0.type: must be one of LOCAL, S3',
      'providers.1.root: is required for a LOCAL provider',
      'providers.2.bucketName: is required for an S3 provider',
      'providers.2.endpoint: must be a URL such as http://127.0.0.1:9000',
      'providers.3.namespaces: should not be empty',
      'providers.3.id: must be a UUID',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('rejects a file without a providers list', () => {
    expect(failureOf(write('empty.yaml', ''))).toMatch(/is invalid:\n\s+- providers: /);
    expect(failureOf(write('other.yaml', 'storage: []'))).toMatch(/providers: must be an array/);
    expect(failureOf(write('list.yaml', '- name: A\n  type: LOCAL\n  root: a\n'))).toMatch(
      /is invalid:\n\s+- providers: must be an array$/,
    );
    expect(failureOf(write('scalar.yaml', 'hello'))).toMatch(/is invalid:\n\s+- providers: must be an array$/);
  });

  it('names entries that are not mappings', () => {
    const message = failureOf(write('items.yaml', 'providers:\n  - just a name\n'));
    expect(message).toContain('providers.0: ');
  });

  it('rejects two providers with the same id, given or derived from the name', () => {
    const id = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
    const given = write(
      'given.yaml',
      `providers:\n  - {id: ${id}, name: A, type: LOCAL, root: a}\n  - {id: ${id}, name: B, type: LOCAL, root: b}\n`,
    );
    expect(failureOf(given)).toContain(`two providers share the id ${id}`);
    const derived = write('derived.yaml', 'providers:\n  - {name: Same, type: LOCAL, root: a}\n  - {name: Same, type: LOCAL, root: b}\n');
    expect(failureOf(derived)).toContain(`two providers share the id ${stableProviderId('Same')}`);
  });

  it('says when the file cannot be read or parsed', () => {
    const missing = join(dir, 'missing.yaml');
    expect(failureOf(missing)).toMatch(new RegExp(`^PROVIDERS_FILE ${missing} cannot be read: .*ENOENT`));
    expect(failureOf(write('broken.yaml', 'providers: [\n  - name: x'))).toMatch(/cannot be read/);
  });
});

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

  it('without a file, offers one LOCAL provider at the default root, a directory per namespace under it', () => {
    const catalog = loadProviderCatalog(undefined, './data/storage');
    expect(catalog).toEqual([
      {
        id: stableProviderId('Local storage'),
        name: 'Local storage',
        type: 'LOCAL',
        icon: 'folder',
        namespaces: null,
        settings: { root: resolve('./data/storage'), name: 'storage' },
        namespaceRoots: { template: '{namespace}', byNamespace: {} },
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
      'providers[0].name: must be longer than or equal to 1 characters',
      'providers[0].type: must be one of LOCAL, S3',
      'providers[1].root: is required for a LOCAL provider',
      'providers[2].bucketName: is required for an S3 provider',
      'providers[2].endpoint: must be a URL such as http://127.0.0.1:9000',
      'providers[3].namespaces: should not be empty',
      'providers[3].id: must be a UUID',
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
    expect(message).toContain('providers[0]: ');
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

  describe('namespace access', () => {
    it('keeps a list of namespaces as before: they share the whole provider', () => {
      const file = write('shared.yaml', 'providers:\n  - {name: Shared, type: LOCAL, root: ./shared, namespaces: [acme, beta]}\n');
      const [shared] = loadProviderCatalog(file, '/unused');
      expect(shared.namespaces).toEqual(['acme', 'beta']);
      expect(shared).not.toHaveProperty('namespaceRoots');
    });

    it('gives every namespace its own directory (LOCAL) or key prefix (S3) from a template', () => {
      const file = write(
        'templates.yaml',
        [
          'providers:',
          '  - {name: Teams, type: LOCAL, root: ./teams, namespaceRoot: "tenants/{namespace}"}',
          '  - {name: Bucket, type: S3, bucketName: b, prefix: "docintel/", namespacePrefix: "{namespace}/", namespaces: [acme]}',
        ].join('\n'),
      );
      const [teams, bucket] = loadProviderCatalog(file, '/unused');
      expect(teams).toMatchObject({ namespaces: null, namespaceRoots: { template: 'tenants/{namespace}', byNamespace: {} } });
      expect(teams.settings).toEqual({ root: join(dir, 'teams'), name: 'teams' });
      expect(bucket).toMatchObject({ namespaces: ['acme'], namespaceRoots: { template: '{namespace}/', byNamespace: {} } });
      expect(bucket.settings).toEqual({ bucketName: 'b', region: 'us-east-1', prefix: 'docintel/' });
    });

    it('reads a mapping of namespaces to their place: who may use the provider, and where', () => {
      const file = write(
        'mapping.yaml',
        [
          'providers:',
          '  - name: Teams',
          '    type: LOCAL',
          '    root: ./teams',
          '    namespaceRoot: "{namespace}"',
          '    namespaces:',
          '      acme: {root: acme-docs}',
          '      beta: {root: /mnt/beta}',
          '      gamma: {}',
          '      delta:',
          '  - name: Bucket',
          '    type: S3',
          '    bucketName: b',
          '    namespaces: {acme: {prefix: "acme/"}, beta: {prefix: ""}}',
        ].join('\n'),
      );
      const [teams, bucket] = loadProviderCatalog(file, '/unused');
      expect(teams.namespaces).toEqual(['acme', 'beta', 'gamma', 'delta']);
      expect(teams.namespaceRoots).toEqual({
        template: '{namespace}',
        byNamespace: { acme: join(dir, 'teams', 'acme-docs'), beta: '/mnt/beta' },
      });
      expect(bucket.namespaces).toEqual(['acme', 'beta']);
      expect(bucket.namespaceRoots).toEqual({ template: null, byNamespace: { acme: 'acme/', beta: '' } });
    });

    it('names each problem of the namespace settings', () => {
      const file = write(
        'bad-access.yaml',
        [
          'providers:',
          '  - {name: A, type: LOCAL, root: a, namespaceRoot: "fixed"}',
          '  - {name: B, type: S3, bucketName: b, namespaceRoot: "{namespace}"}',
          '  - {name: C, type: LOCAL, root: c, namespacePrefix: "{namespace}/"}',
          '  - {name: D, type: S3, bucketName: d, namespacePrefix: "{namespace}"}',
          '  - {name: E, type: LOCAL, root: e, namespaceRoot: "../{namespace}"}',
          '  - {name: F, type: LOCAL, root: f, namespaces: {}}',
          '  - {name: G, type: LOCAL, root: g, namespaces: {"-bad": {}, acme: {prefix: "x/"}, beta: {root: "../up"}, gamma: 3}}',
          '  - {name: H, type: S3, bucketName: h, namespaces: {acme: {prefix: "no-slash"}}, prefix: "/abs/"}',
          '  - {name: I, type: LOCAL, root: i, namespaces: acme}',
        ].join('\n'),
      );
      const message = failureOf(file);
      for (const expected of [
        'providers[0].namespaceRoot: must contain {namespace}',
        'providers[1].namespaceRoot: is for LOCAL providers',
        'providers[2].namespacePrefix: is for S3 providers',
        "providers[3].namespacePrefix: must be a key prefix ending in '/'",
        'providers[4].namespaceRoot: must be a directory',
        'providers[5].namespaces: should not be empty',
        'providers[6].namespaces.-bad: must be a namespace name',
        "providers[6].namespaces.acme.prefix: is not a setting of an LOCAL provider's namespace (only root)",
        'providers[6].namespaces.beta.root: must be a directory',
        'providers[6].namespaces.gamma: must be a mapping',
        "providers[7].namespaces.acme.prefix: must be a key prefix ending in '/'",
        "providers[7].prefix: must be '' or a key prefix ending in '/'",
        'providers[8].namespaces: must be a list of namespace names, or a mapping',
      ]) {
        expect(message).toContain(expected);
      }
    });
  });

  it('says when the file cannot be read or parsed', () => {
    const missing = join(dir, 'missing.yaml');
    expect(failureOf(missing)).toMatch(new RegExp(`^PROVIDERS_FILE ${missing} cannot be read: .*ENOENT`));
    expect(failureOf(write('broken.yaml', 'providers: [\n  - name: x'))).toMatch(/cannot be read/);
  });
});

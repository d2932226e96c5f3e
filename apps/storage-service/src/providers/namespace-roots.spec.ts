import { DomainError } from '@docintel/contracts';
import { namespaceDriverSettings, type NamespaceRoots } from './namespace-roots';

const local = (namespaceRoots: NamespaceRoots | null) => ({
  type: 'LOCAL' as const,
  settings: { root: '/srv/docs', name: 'docs' },
  namespaceRoots,
});
const s3 = (namespaceRoots: NamespaceRoots | null, prefix?: string) => ({
  type: 'S3' as const,
  settings: { bucketName: 'b', region: 'us-east-1', ...(prefix !== undefined ? { prefix } : {}) },
  namespaceRoots,
});

describe('namespaceDriverSettings', () => {
  it('leaves a provider without namespace roots whole, for every namespace (a shared provider)', () => {
    expect(namespaceDriverSettings(local(null), 'acme')).toEqual({ root: '/srv/docs', name: 'docs' });
    expect(namespaceDriverSettings(s3(null), 'acme')).toEqual({ bucketName: 'b', region: 'us-east-1' });
  });

  it('roots each namespace at its own directory or prefix from the template', () => {
    const roots = { template: '{namespace}', byNamespace: {} };
    expect(namespaceDriverSettings(local(roots), 'acme').root).toBe('/srv/docs/acme');
    expect(namespaceDriverSettings(local(roots), 'beta').root).toBe('/srv/docs/beta');
    expect(namespaceDriverSettings(local({ template: '/data/{namespace}/files', byNamespace: {} }), 'acme').root).toBe('/data/acme/files');
    expect(namespaceDriverSettings(s3({ template: 'ns/{namespace}/', byNamespace: {} }, 'docintel/'), 'acme').prefix).toBe(
      'docintel/ns/acme/',
    );
    expect(namespaceDriverSettings(s3({ template: '{namespace}/', byNamespace: {} }), 'beta').prefix).toBe('beta/');
  });

  it('prefers a namespace place of its own, and gives the whole provider to the others without a template', () => {
    const roots = { template: null, byNamespace: { acme: '/mnt/acme' } };
    expect(namespaceDriverSettings(local(roots), 'acme').root).toBe('/mnt/acme');
    expect(namespaceDriverSettings(local(roots), 'beta').root).toBe('/srv/docs');
    expect(namespaceDriverSettings(s3({ template: '{namespace}/', byNamespace: { admin: '' } }), 'admin').prefix).toBe('');
  });

  it('never takes an inherited property for a namespace place', () => {
    const roots = { template: '{namespace}', byNamespace: {} };
    expect(namespaceDriverSettings(local(roots), 'constructor').root).toBe('/srv/docs/constructor');
    expect(namespaceDriverSettings(local(roots), 'toString').root).toBe('/srv/docs/toString');
  });

  it('refuses a namespace name that is not a safe path segment (403)', () => {
    const roots = { template: '{namespace}', byNamespace: {} };
    for (const bad of ['..', '.', '', 'a/b', '../etc', '.docintel-staging', 'x\n']) {
      expect(() => namespaceDriverSettings(local(roots), bad)).toThrow(DomainError);
      expect(() => namespaceDriverSettings(s3({ template: '{namespace}/', byNamespace: {} }), bad)).toThrow(DomainError);
    }
  });
});

import { resolve } from 'node:path';
import { DomainError, keyProblems, NAMESPACE_NAME_PATTERN, NAMESPACE_PLACEHOLDER, type ProviderType } from '@docintel/contracts';

/**
 * Where each namespace's items live inside a provider. A namespace works in its part of the
 * provider only: the driver it gets is rooted there, so the keys it sees are relative to that
 * root and no key can reach another namespace's part.
 */
export interface NamespaceRoots {
  /**
   * For a namespace without a place of its own: a template containing {namespace}. LOCAL: a
   * directory, relative to the provider's root or absolute; S3: a key prefix under the provider's
   * prefix, ending in '/'. null: such a namespace works in the whole provider.
   */
  template: string | null;
  /** Namespaces with a place of their own. LOCAL: an absolute directory; S3: a key prefix ('' is the whole provider). */
  byNamespace: Record<string, string>;
}

export function fillNamespace(template: string, namespace: string): string {
  return template.split(NAMESPACE_PLACEHOLDER).join(namespace);
}

/**
 * The driver settings of a provider as one namespace uses it: the provider's own settings with
 * `root` (LOCAL) or `prefix` (S3) moved to the namespace's place. A namespace name that could not
 * be a path segment never reaches a template (403).
 */
export function namespaceDriverSettings(
  provider: { type: ProviderType; settings: Record<string, unknown>; namespaceRoots: NamespaceRoots | null },
  namespace: string,
): Record<string, unknown> {
  const roots = provider.namespaceRoots;
  if (!roots) return provider.settings;
  const own = Object.hasOwn(roots.byNamespace, namespace) ? roots.byNamespace[namespace] : undefined;
  if (own === undefined && roots.template === null) return provider.settings;
  let place: string;
  if (own !== undefined) {
    place = own;
  } else {
    if (!NAMESPACE_NAME_PATTERN.test(namespace)) throw DomainError.forbidden(`Namespace ${namespace} cannot have a place in a provider`);
    place = fillNamespace(roots.template as string, namespace);
  }
  if (provider.type === 'LOCAL') return { ...provider.settings, root: resolve(String(provider.settings.root), place) };
  if (place !== '' && keyProblems(place, 'folder').length)
    throw DomainError.forbidden(`Namespace ${namespace} has no valid place in this provider`);
  const base = typeof provider.settings.prefix === 'string' ? provider.settings.prefix : '';
  return { ...provider.settings, prefix: `${base}${place}` };
}

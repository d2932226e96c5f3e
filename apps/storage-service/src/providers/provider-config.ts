import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { parse } from 'yaml';
import {
  keyProblems,
  NAMESPACE_NAME_PATTERN,
  NAMESPACE_PLACEHOLDER,
  PROVIDER_TYPES,
  toErrorDetails,
  type ErrorDetail,
  type ProviderType,
} from '@docintel/contracts';
import { fillNamespace, type NamespaceRoots } from './namespace-roots';

/** One provider as the operator writes it in the providers file (YAML or JSON). */
export class ProviderConfigEntry {
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  id?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @IsIn(PROVIDER_TYPES, { message: `must be one of ${PROVIDER_TYPES.join(', ')}` })
  type: ProviderType;

  @IsOptional()
  @IsString()
  icon?: string;

  /**
   * Which namespaces may use the provider (absent: all), in one of two forms:
   * - a list of names: they share the provider's root (or, with namespaceRoot / namespacePrefix,
   *   each works in its own part of it);
   * - a mapping from name to where that namespace's items live: `{ root }` for LOCAL (a directory,
   *   relative to the provider's root or absolute), `{ prefix }` for S3 (a key prefix under the
   *   provider's prefix, ending in '/'); `{}` or null for the template, or the whole provider.
   * Checked by namespaceAccessProblems (class-validator has no either-or type).
   */
  namespaces?: string[] | Record<string, NamespacePlacementEntry | null>;

  /**
   * LOCAL: the directory of each namespace, a template with {namespace}, relative to `root` (or
   * absolute): `"{namespace}"` gives every namespace `<root>/<name>`.
   */
  @IsOptional()
  @IsString()
  namespaceRoot?: string;

  /** S3: the key prefix of each namespace, a template with {namespace} ending in '/': `"{namespace}/"`. */
  @IsOptional()
  @IsString()
  namespacePrefix?: string;

  // LOCAL
  @ValidateIf((o: ProviderConfigEntry) => o.type === 'LOCAL')
  @IsString({ message: 'is required for a LOCAL provider (the directory that holds its files)' })
  root?: string;

  // S3
  @ValidateIf((o: ProviderConfigEntry) => o.type === 'S3')
  @IsString({ message: 'is required for an S3 provider' })
  bucketName?: string;

  @IsOptional()
  @IsString()
  region?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'must be a URL such as http://127.0.0.1:9000' })
  endpoint?: string;

  @IsOptional()
  @IsBoolean()
  pathStyle?: boolean;

  @IsOptional()
  @IsString()
  accessKey?: string;

  @IsOptional()
  @IsString()
  secretKey?: string;

  @IsOptional()
  @IsString()
  sessionToken?: string;

  /** S3: the provider's key prefix in the bucket ('' or ending in '/'), so that providers can share a bucket. */
  @IsOptional()
  @IsString()
  prefix?: string;
}

/** Where one namespace's items live, as the providers file says it (see ProviderConfigEntry.namespaces). */
export interface NamespacePlacementEntry {
  root?: string;
  prefix?: string;
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A relative path that stays where it starts: no '.', '..' or empty segments, no backslashes or control characters. */
function relativePathProblem(path: string): string | null {
  const problems = keyProblems(`${path.replace(/\/+$/, '')}/`, 'folder');
  return problems.length ? problems[0].problem : null;
}

/**
 * The problems of an entry's namespace access settings (namespaces, namespaceRoot,
 * namespacePrefix, prefix), with the field path of each, beside what class-validator finds.
 */
export function namespaceAccessProblems(e: ProviderConfigEntry, path: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const add = (field: string, problem: string) => problems.push({ field: `${path}.${field}`, problem });
  const placeKey = e.type === 'S3' ? 'prefix' : 'root';

  const ns: unknown = e.namespaces;
  if (Array.isArray(ns)) {
    if (ns.length === 0) add('namespaces', 'should not be empty');
    ns.forEach((n, i) => {
      if (typeof n !== 'string') add(`namespaces.${i}`, 'must be a string');
    });
  } else if (isMapping(ns)) {
    const names = Object.keys(ns);
    if (names.length === 0) add('namespaces', 'should not be empty');
    for (const name of names) {
      const field = `namespaces.${name}`;
      if (!NAMESPACE_NAME_PATTERN.test(name))
        add(field, 'must be a namespace name (letters, digits, ., _ or -, starting with a letter or digit)');
      const place = ns[name];
      if (place === null) continue;
      if (!isMapping(place)) {
        add(field, `must be a mapping such as { ${placeKey}: ... }, or empty`);
        continue;
      }
      for (const k of Object.keys(place)) {
        if (k !== placeKey) add(`${field}.${k}`, `is not a setting of an ${e.type} provider's namespace (only ${placeKey})`);
      }
      const value = place[placeKey];
      if (value === undefined) continue;
      if (typeof value !== 'string') add(`${field}.${placeKey}`, 'must be a string');
      else if (e.type === 'S3' && value !== '' && keyProblems(value, 'folder').length) {
        add(`${field}.prefix`, "must be a key prefix ending in '/' (such as acme/), or '' for the whole provider");
      } else if (e.type === 'LOCAL' && (value === '' || (!isAbsolute(value) && relativePathProblem(value)))) {
        add(`${field}.root`, 'must be a directory: absolute, or relative to the provider root without . or .. segments');
      }
    }
  } else if (ns !== undefined && ns !== null) {
    add('namespaces', 'must be a list of namespace names, or a mapping from namespace name to its place in the provider');
  }

  if (e.namespaceRoot !== undefined) {
    if (e.type !== 'LOCAL') add('namespaceRoot', 'is for LOCAL providers; an S3 provider takes namespacePrefix');
    else if (typeof e.namespaceRoot === 'string') {
      if (!e.namespaceRoot.includes(NAMESPACE_PLACEHOLDER)) add('namespaceRoot', `must contain ${NAMESPACE_PLACEHOLDER}`);
      else {
        const sample = fillNamespace(e.namespaceRoot, 'ns');
        if (!isAbsolute(sample) && relativePathProblem(sample)) {
          add('namespaceRoot', 'must be a directory: absolute, or relative to the provider root without . or .. segments');
        }
      }
    }
  }
  if (e.namespacePrefix !== undefined) {
    if (e.type !== 'S3') add('namespacePrefix', 'is for S3 providers; a LOCAL provider takes namespaceRoot');
    else if (typeof e.namespacePrefix === 'string') {
      if (!e.namespacePrefix.includes(NAMESPACE_PLACEHOLDER)) add('namespacePrefix', `must contain ${NAMESPACE_PLACEHOLDER}`);
      else if (keyProblems(fillNamespace(e.namespacePrefix, 'ns'), 'folder').length) {
        add('namespacePrefix', "must be a key prefix ending in '/', such as {namespace}/");
      }
    }
  }
  if (e.prefix !== undefined && typeof e.prefix === 'string') {
    if (e.type !== 'S3') add('prefix', 'is for S3 providers');
    else if (e.prefix !== '' && keyProblems(e.prefix, 'folder').length) add('prefix', "must be '' or a key prefix ending in '/'");
  }
  return problems;
}

class ProvidersFile {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProviderConfigEntry)
  providers: ProviderConfigEntry[];
}

/** Keys of a provider's settings that may be shown through the API, per type. */
const PUBLIC_KEYS: Record<ProviderType, string[]> = {
  LOCAL: ['name'],
  S3: ['bucketName', 'region'],
};

/** The provider's `config` as the API shows it: a tagged object without credentials or paths. */
export function publicConfig(type: ProviderType, settings: Record<string, unknown>): Record<string, unknown> & { type: ProviderType } {
  const shown: Record<string, unknown> = {};
  for (const key of PUBLIC_KEYS[type]) if (settings[key] !== undefined) shown[key] = settings[key];
  return { type, ...shown };
}

/** A name-derived UUID (version 5 layout), so a provider keeps its id across restarts when the file gives none. */
export function stableProviderId(name: string): string {
  const h = createHash('sha1').update(`docintel:provider:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface ResolvedProvider {
  id: string;
  name: string;
  type: ProviderType;
  icon: string | null;
  /** Names of the namespaces that may use the provider; null: every namespace. */
  namespaces: string[] | null;
  settings: Record<string, unknown>;
  /** Where each namespace's items live; absent: every namespace that may use it shares the whole provider. */
  namespaceRoots?: NamespaceRoots;
}

function resolveEntry(e: ProviderConfigEntry, baseDir: string): ResolvedProvider {
  const { id, name, type, icon, namespaces, namespaceRoot, namespacePrefix, ...rest } = e;
  const settings: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (type === 'LOCAL') {
    settings.root = resolve(baseDir, e.root as string);
    settings.name = basename(settings.root as string);
  }
  if (type === 'S3') settings.region = e.region ?? 'us-east-1';

  const byNamespace: Record<string, string> = {};
  let allowed: string[] | null = null;
  if (Array.isArray(namespaces)) {
    allowed = [...namespaces];
  } else if (namespaces) {
    allowed = Object.keys(namespaces);
    for (const [ns, place] of Object.entries(namespaces)) {
      if (type === 'LOCAL' && place?.root !== undefined) byNamespace[ns] = resolve(settings.root as string, place.root);
      if (type === 'S3' && place?.prefix !== undefined) byNamespace[ns] = place.prefix;
    }
  }
  const template = (type === 'LOCAL' ? namespaceRoot : namespacePrefix) ?? null;
  const resolved: ResolvedProvider = { id: id ?? stableProviderId(name), name, type, icon: icon ?? null, namespaces: allowed, settings };
  if (template !== null || Object.keys(byNamespace).length) resolved.namespaceRoots = { template, byNamespace };
  return resolved;
}

/** The provider that serves when there is no providers file: one LOCAL root, a directory per namespace under it. */
export const DEFAULT_PROVIDER_NAME = 'Local storage';

/**
 * Reads the operator's providers file, or, when none is configured, one LOCAL provider named
 * "Local storage" rooted at the default storage directory. Throws with every problem listed.
 */
export function loadProviderCatalog(file: string | undefined, defaultRoot: string): ResolvedProvider[] {
  if (!file) {
    const entry = Object.assign(new ProviderConfigEntry(), {
      name: DEFAULT_PROVIDER_NAME,
      type: 'LOCAL',
      root: defaultRoot,
      icon: 'folder',
      // Namespaces never share the development default: each one gets STORAGE_ROOT/<namespace>.
      namespaceRoot: NAMESPACE_PLACEHOLDER,
    });
    return [resolveEntry(entry, process.cwd())];
  }
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`PROVIDERS_FILE ${file} cannot be read: ${(err as Error).message}`);
  }
  // A bare list or a scalar has no `providers` key; validating it as a mapping says so.
  const mapping = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const doc = plainToInstance(ProvidersFile, mapping);
  const details = toErrorDetails(validateSync(doc));
  if (Array.isArray(doc.providers)) {
    doc.providers.forEach((e, i) => {
      if (e instanceof ProviderConfigEntry) details.push(...namespaceAccessProblems(e, `providers[${i}]`));
    });
  }
  if (details.length) {
    const problems = details.map((d) => `${d.field}: ${d.problem}`);
    throw new Error(`PROVIDERS_FILE ${file} is invalid:\n  - ${problems.join('\n  - ')}`);
  }
  const resolved = doc.providers.map((e) => resolveEntry(e, resolve(file, '..')));
  const seen = new Set<string>();
  for (const p of resolved) {
    if (seen.has(p.id)) throw new Error(`PROVIDERS_FILE ${file} is invalid: two providers share the id ${p.id}`);
    seen.add(p.id);
  }
  return resolved;
}

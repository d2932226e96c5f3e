import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
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
import { PROVIDER_TYPES, toErrorDetails, type ProviderType } from '@docintel/contracts';

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

  /** Namespaces allowed to use the provider; absent means all. */
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @IsString({ each: true })
  namespaces?: string[];

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
  namespaces: string[] | null;
  settings: Record<string, unknown>;
}

function resolveEntry(e: ProviderConfigEntry, baseDir: string): ResolvedProvider {
  const { id, name, type, icon, namespaces, ...rest } = e;
  const settings: Record<string, unknown> = { ...rest };
  if (type === 'LOCAL') {
    settings.root = resolve(baseDir, e.root as string);
    settings.name = basename(settings.root as string);
  }
  if (type === 'S3') settings.region = e.region ?? 'us-east-1';
  return { id: id ?? stableProviderId(name), name, type, icon: icon ?? null, namespaces: namespaces ?? null, settings };
}

/**
 * Reads the operator's providers file, or, when none is configured, one LOCAL provider named
 * "Local storage" rooted at the default storage directory. Throws with every problem listed.
 */
export function loadProviderCatalog(file: string | undefined, defaultRoot: string): ResolvedProvider[] {
  if (!file) {
    return [resolveEntry(Object.assign(new ProviderConfigEntry(), { name: 'Local storage', type: 'LOCAL', root: defaultRoot, icon: 'folder' }), process.cwd())];
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
  const errors = validateSync(doc);
  if (errors.length) {
    const problems = toErrorDetails(errors).map((d) => `${d.field}: ${d.problem}`);
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

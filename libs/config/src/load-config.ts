import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/** Raised at start-up when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describe(errors: ValidationError[], given: Record<string, unknown>): string[] {
  return errors.flatMap((e) => {
    // Show the text the operator set: the converted value of a non-number would read "null".
    const raw = given[e.property];
    const value = raw === undefined ? 'unset' : JSON.stringify(raw);
    const why = Object.values(e.constraints ?? {}).map((m) => m.replace(`${e.property} `, ''));
    return [`${e.property} (${value}): ${why.join('; ')}`];
  });
}

/**
 * Validates an environment against a class whose properties are variable names, and returns
 * the typed, defaulted result. Unknown variables are ignored; invalid ones throw ConfigError.
 */
export function loadConfig<T extends object>(cls: ClassConstructor<T>, env: NodeJS.ProcessEnv = process.env): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(cls, present, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length) throw new ConfigError(describe(errors, present));
  return config;
}

import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { CommonEnv, loadConfig } from '@docintel/config';
import { redactUrl as persistenceRedactUrl } from '@docintel/persistence';
import { DEFAULT_DATABASE_URL, OTHER_COMMON_VARIABLES, databaseUrl, redactUrl } from './database';

/** What the CLI shares with the services without loading @docintel/config or @docintel/persistence answers as they do. */

const outcome = async <T>(run: () => T | Promise<T>) => {
  try {
    return { value: await run() };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

describe('the CLI reads DATABASE_URL as loadConfig(CommonEnv) does', () => {
  it.each<Record<string, string>>([
    {},
    { DATABASE_URL: '' },
    { DATABASE_URL: 'postgres://u:p@db:5432/x' },
    { DATABASE_URL: 'postgresql://db/x' },
    { DATABASE_URL: 'mysql://db/x' },
    { DATABASE_URL: 'postgres://' },
    { DATABASE_URL: 'postgres://db/x', LOG_LEVEL: 'bogus' },
    { DATABASE_URL: 'mysql://db/x', NATS_URL: 'http://nats' },
    { LOG_LEVEL: 'debug', DATABASE_POOL_SIZE: '0' },
    { NATS_PREFIX: 'ok', LOG_LEVEL: '' },
  ])('%p', async (env) => {
    expect(await outcome(() => databaseUrl(env))).toEqual(await outcome(() => loadConfig(CommonEnv, env).DATABASE_URL));
  });

  it('with the same default', () => {
    expect(DEFAULT_DATABASE_URL).toBe(new CommonEnv().DATABASE_URL);
  });

  it('and knows every other variable of CommonEnv, to leave their checks to loadConfig', () => {
    const properties = getMetadataStorage()
      .getTargetValidationMetadatas(CommonEnv, '', true, false)
      .map((m) => m.propertyName);
    expect([...new Set(properties)].filter((p) => p !== 'DATABASE_URL').sort()).toEqual([...OTHER_COMMON_VARIABLES].sort());
  });
});

describe("the CLI's redactUrl", () => {
  it.each(['postgres://u:secret@db:5432/x', 'postgres://u@db/x', 'postgres://db/x?sslmode=require', 'not a url'])('%s', (url) => {
    expect(redactUrl(url)).toBe(persistenceRedactUrl(url));
  });
});

import 'reflect-metadata';
import { CommonEnv } from './common-env';
import {
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_STORAGE_SERVICE_URL,
  IsBooleanVar,
  IsByteCountVar,
  IsHttpUrlVar,
  IsIntegerVar,
  IsPortVar,
  IsStorageServiceUrlVar,
} from './env-validators';
import { ConfigError, loadConfig } from './load-config';

class SharedEnv extends CommonEnv {
  @IsPortVar()
  PORT = 0;

  @IsStorageServiceUrlVar()
  STORAGE_SERVICE_URL = DEFAULT_STORAGE_SERVICE_URL;

  @IsByteCountVar()
  MAX_UPLOAD_BYTES = DEFAULT_MAX_UPLOAD_BYTES;

  @IsHttpUrlVar()
  BASE_URL = 'http://127.0.0.1';

  @IsIntegerVar(1024, 4096)
  BODY_LIMIT = 2048;

  @IsBooleanVar()
  ENABLED = true;
}

/** A subclass that only changes a default keeps the parent's rule. */
class OverridingEnv extends SharedEnv {
  override PORT = 8080;
}

function problems(env: NodeJS.ProcessEnv, cls: new () => object = SharedEnv): string[] {
  try {
    loadConfig(cls, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  return [];
}

describe('shared environment validators', () => {
  it('gives the shared defaults and converts values', () => {
    expect(loadConfig(SharedEnv, {})).toMatchObject({
      PORT: 0,
      STORAGE_SERVICE_URL: 'http://127.0.0.1:8081',
      MAX_UPLOAD_BYTES: 5 * 1024 ** 3,
      BODY_LIMIT: 2048,
      ENABLED: true,
    });
    expect(
      loadConfig(SharedEnv, { PORT: '3000', MAX_UPLOAD_BYTES: '1024', ENABLED: 'no', STORAGE_SERVICE_URL: 'https://storage:8081' }),
    ).toMatchObject({
      PORT: 3000,
      MAX_UPLOAD_BYTES: 1024,
      ENABLED: false,
      STORAGE_SERVICE_URL: 'https://storage:8081',
    });
    expect(loadConfig(SharedEnv, { ENABLED: 'YES' }).ENABLED).toBe(true);
  });

  it.each([
    ['PORT', 'http', 'must be a TCP port number'],
    ['PORT', '70000', 'must not be greater than 65535'],
    ['STORAGE_SERVICE_URL', 'ftp://storage', 'must be an http(s) URL such as http://127.0.0.1:8081'],
    ['BASE_URL', 'storage:8081', 'must be an http(s) URL'],
    ['MAX_UPLOAD_BYTES', '1.5', 'must be a whole number of bytes'],
    ['MAX_UPLOAD_BYTES', '0', 'must not be less than 1'],
    ['BODY_LIMIT', '10', 'must not be less than 1024'],
  ])('rejects %s=%s, naming the variable and the rule', (name, value, rule) => {
    const [problem, ...more] = problems({ [name]: value });
    expect(more).toEqual([]);
    expect(problem.startsWith(`${name} (${JSON.stringify(value)}): `)).toBe(true);
    expect(problem).toContain(rule);
  });

  it('keeps the rule of a variable whose default a subclass overrides', () => {
    expect(loadConfig(OverridingEnv, {}).PORT).toBe(8080);
    expect(loadConfig(OverridingEnv, { PORT: '9000' }).PORT).toBe(9000);
    expect(problems({ PORT: '70000' }, OverridingEnv)).toEqual(['PORT ("70000"): must not be greater than 65535']);
  });
});

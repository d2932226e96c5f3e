import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { CommonEnv } from './common-env';
import { ConfigError, loadConfig } from './load-config';

class PortEnv extends CommonEnv {
  @Type(() => Number)
  @IsInt({ message: 'must be a TCP port number' })
  @Min(0)
  @Max(65535)
  PORT = 8080;
}

function configError(env: NodeJS.ProcessEnv, cls: new () => object = CommonEnv): ConfigError {
  try {
    loadConfig(cls, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults when nothing is set', () => {
    const env = loadConfig(CommonEnv, {});
    expect(env).toBeInstanceOf(CommonEnv);
    expect(env).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/docintel',
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_PREFIX: '',
      LOG_LEVEL: 'info',
      RPC_TIMEOUT_MS: 10_000,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      DATABASE_POOL_SIZE: 10,
    });
    expect(env.INSTANCE_ID).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(CommonEnv, { LOG_LEVEL: '', RPC_TIMEOUT_MS: '' })).toMatchObject({ LOG_LEVEL: 'info', RPC_TIMEOUT_MS: 10_000 });
  });

  it('converts numeric variables to numbers and keeps valid values', () => {
    const env = loadConfig(CommonEnv, {
      DATABASE_URL: 'postgresql://u:p@db:5432/x',
      NATS_URL: 'nats://a:4222,nats://b:4222',
      NATS_PREFIX: 'ci_run-1',
      LOG_LEVEL: 'debug',
      RPC_TIMEOUT_MS: '2500',
      SHUTDOWN_TIMEOUT_MS: '0',
      INSTANCE_ID: 'node-7',
    });
    expect(env).toMatchObject({
      DATABASE_URL: 'postgresql://u:p@db:5432/x',
      NATS_URL: 'nats://a:4222,nats://b:4222',
      NATS_PREFIX: 'ci_run-1',
      LOG_LEVEL: 'debug',
      RPC_TIMEOUT_MS: 2500,
      SHUTDOWN_TIMEOUT_MS: 0,
      INSTANCE_ID: 'node-7',
    });
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig(CommonEnv, { HOME: '/root', SOMETHING_ELSE: 'x' })).not.toThrow();
  });

  it.each([
    ['DATABASE_URL', 'mysql://root@db/x', 'must be a postgres:// connection URL'],
    ['NATS_URL', 'http://127.0.0.1:4222', 'must be one or more nats:// URLs separated by commas'],
    ['NATS_PREFIX', 'has.dots', 'may contain only letters, digits, - and _'],
    ['LOG_LEVEL', 'verbose', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['RPC_TIMEOUT_MS', 'soon', 'must be an integer number of milliseconds'],
    ['RPC_TIMEOUT_MS', '5', 'must not be less than 100'],
    ['SHUTDOWN_TIMEOUT_MS', '1.5', 'must be an integer number of milliseconds'],
    ['DATABASE_POOL_SIZE', '500', 'must not be greater than 200'],
  ])('rejects %s=%s, naming the variable, its value and the rule', (name, value, rule) => {
    const err = configError({ [name]: value });
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0].startsWith(`${name} (${JSON.stringify(value)}): `)).toBe(true);
    expect(err.problems[0]).toContain(rule);
    expect(err.message).toContain(err.problems[0]);
    expect(err.message.startsWith('Invalid configuration:')).toBe(true);
  });

  it('lists every bad variable at once', () => {
    const err = configError({ DATABASE_URL: 'nope', LOG_LEVEL: 'loud', PORT: '70000' }, PortEnv);
    expect(err.problems.map((p) => p.split(' ')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
    expect(err.problems).toContain('PORT ("70000"): must not be greater than 65535');
  });

  it('validates the variables a service class adds', () => {
    expect(loadConfig(PortEnv, { PORT: '3000' }).PORT).toBe(3000);
    expect(loadConfig(PortEnv, {}).PORT).toBe(8080);
    const [problem] = configError({ PORT: 'http' }, PortEnv).problems;
    expect(problem.startsWith('PORT ("http"): ')).toBe(true);
    expect(problem).toContain('must be a TCP port number');
  });
});

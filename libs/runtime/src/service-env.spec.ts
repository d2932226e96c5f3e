import 'reflect-metadata';
import { ConfigError, loadConfig } from '@docintel/config';
import { ServiceEnv, tracingSettingsOf } from './service-env';

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(ServiceEnv, env);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
}

describe('ServiceEnv: OpenTelemetry variables', () => {
  it('leaves tracing off when no endpoint is set', () => {
    expect(tracingSettingsOf(loadConfig(ServiceEnv, {}), 'storage-service')).toBeUndefined();
  });

  it('turns tracing on with an OTLP endpoint, named after the app unless OTEL_SERVICE_NAME says otherwise', () => {
    const env = loadConfig(ServiceEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' });
    expect(tracingSettingsOf(env, 'storage-service')).toEqual({
      serviceName: 'storage-service',
      url: 'http://otel-collector:4318/v1/traces',
    });
    const named = loadConfig(ServiceEnv, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
      OTEL_SERVICE_NAME: 'docintel-storage',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(tracingSettingsOf(named, 'storage-service')).toEqual({
      serviceName: 'docintel-storage',
      url: 'http://127.0.0.1:4318/v1/traces',
    });
    expect(named.OTEL_TRACES_SAMPLER_ARG).toBe(0.25);
  });

  it('keeps tracing off when the SDK is disabled or the exporter is none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' };
    expect(tracingSettingsOf(loadConfig(ServiceEnv, { ...endpoint, OTEL_SDK_DISABLED: 'true' }), 'x')).toBeUndefined();
    expect(tracingSettingsOf(loadConfig(ServiceEnv, { ...endpoint, OTEL_TRACES_EXPORTER: 'none' }), 'x')).toBeUndefined();
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'otel-collector:4318', 'must be an http(s) URL such as http://otel-collector:4318'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'grpc://collector:4317', 'must be an http(s) URL'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc', "point the endpoint at the collector's OTLP/HTTP port (4318)"],
    ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'grpc', 'must be http/json'],
    ['OTEL_TRACES_SAMPLER', 'sometimes', 'must be one of always_on, always_off, traceidratio'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5', 'must be a number from 0 to 1'],
    ['OTEL_TRACES_EXPORTER', 'jaeger', 'must be otlp or none'],
  ])('rejects %s=%s, naming the variable', (name, value, rule) => {
    const [problem, ...more] = problems({ [name]: value });
    expect(more).toEqual([]);
    expect(problem.startsWith(`${name} (${JSON.stringify(value)}): `)).toBe(true);
    expect(problem).toContain(rule);
  });
});

describe('ServiceEnv: liveness variables', () => {
  it('defaults to a 5 s event-loop delay limit over 5 s windows', () => {
    const env = loadConfig(ServiceEnv, {});
    expect([env.LIVENESS_MAX_EVENT_LOOP_DELAY_MS, env.LIVENESS_WINDOW_MS]).toEqual([5000, 5000]);
    expect(loadConfig(ServiceEnv, { LIVENESS_MAX_EVENT_LOOP_DELAY_MS: '2000' }).LIVENESS_MAX_EVENT_LOOP_DELAY_MS).toBe(2000);
  });

  it.each([
    ['LIVENESS_MAX_EVENT_LOOP_DELAY_MS', 'soon'],
    ['LIVENESS_MAX_EVENT_LOOP_DELAY_MS', '0'],
    ['LIVENESS_WINDOW_MS', '10'],
  ])('rejects %s=%s, naming the variable', (name, value) => {
    const [problem, ...more] = problems({ [name]: value });
    expect(more).toEqual([]);
    expect(problem.startsWith(`${name} (${JSON.stringify(value)}): `)).toBe(true);
  });
});

import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { CommonEnv, IsBooleanVar, IsHttpUrlVar, IsIntegerVar, IsPortVar } from '@docintel/config';
import { otlpTracesUrl, type TracingSettings } from '@docintel/observability';

/** The samplers the OTel SDK builds from OTEL_TRACES_SAMPLER. */
export const OTEL_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * docintel sends OTLP over HTTP as JSON. An OTLP/HTTP receiver takes JSON as well as protobuf, so
 * http/protobuf is accepted too (a shared setting of the pod); grpc is another port and protocol.
 */
const OTLP_PROTOCOLS = ['http/json', 'http/protobuf'];
const PROTOCOL_MESSAGE =
  "must be http/json (or http/protobuf): docintel exports traces over OTLP/HTTP as JSON, which every OTLP/HTTP receiver accepts; for grpc, point the endpoint at the collector's OTLP/HTTP port (4318) instead";

/**
 * Every process serves HTTP: the gateway its API, the services /health and /metrics. Tracing
 * reads the standard OpenTelemetry variables, checked here so that a typo stops the process
 * with the variable's name instead of silently exporting nothing.
 */
export class ServiceEnv extends CommonEnv {
  @IsPortVar()
  PORT = 0;

  @IsString()
  HOST = '127.0.0.1';

  /**
   * /health/live answers 503 while the event loop was late by more than this in the current or
   * the previous LIVENESS_WINDOW_MS. Above the longest synchronous step a healthy service takes
   * (a large PDF's parse, a GC pause on a busy 2-core machine), well below a stall that times
   * requests out.
   */
  @IsIntegerVar(50, 600_000, 'must be an integer number of milliseconds')
  LIVENESS_MAX_EVENT_LOOP_DELAY_MS = 5000;

  /**
   * A stall is reported for one to two windows after it ends: long enough for the next probe (every
   * 10 s) to see it when stalls repeat, short enough that a single stall of a few seconds does not
   * add up to three failed probes in a row and a restart.
   */
  @IsIntegerVar(1000, 600_000, 'must be an integer number of milliseconds')
  LIVENESS_WINDOW_MS = 5000;

  /** Base URL of an OTLP/HTTP receiver (a collector's :4318); spans go to <url>/v1/traces. Tracing is off without it. */
  @IsOptional()
  @IsHttpUrlVar('http://otel-collector:4318')
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The full traces URL; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  @IsOptional()
  @IsHttpUrlVar('http://otel-collector:4318/v1/traces')
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @IsOptional()
  @IsIn(OTLP_PROTOCOLS, { message: PROTOCOL_MESSAGE })
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;

  @IsOptional()
  @IsIn(OTLP_PROTOCOLS, { message: PROTOCOL_MESSAGE })
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;

  /** service.name of the spans; the app's name (api-gateway, storage-service, ...) when unset. */
  @IsOptional()
  @IsNotEmpty({ message: 'must not be empty' })
  OTEL_SERVICE_NAME?: string;

  @IsOptional()
  @IsIn(OTEL_SAMPLERS, { message: `must be one of ${OTEL_SAMPLERS.join(', ')}` })
  OTEL_TRACES_SAMPLER?: (typeof OTEL_SAMPLERS)[number];

  /** The ratio of the traceidratio samplers. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number from 0 to 1' })
  @Min(0, { message: 'must be a number from 0 to 1' })
  @Max(1, { message: 'must be a number from 0 to 1' })
  OTEL_TRACES_SAMPLER_ARG?: number;

  /** otlp (default) or none, which turns tracing off while an endpoint is set. */
  @IsOptional()
  @IsIn(['otlp', 'none'], { message: 'must be otlp or none (docintel exports traces over OTLP/HTTP only)' })
  OTEL_TRACES_EXPORTER?: 'otlp' | 'none';

  /** true turns tracing off whatever else is set. */
  @IsBooleanVar()
  OTEL_SDK_DISABLED = false;
}

/** Where this service sends its spans, or undefined when tracing is off (no endpoint, OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none). */
export function tracingSettingsOf(env: ServiceEnv, service: string): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  const url = otlpTracesUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT, env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  return url ? { serviceName: env.OTEL_SERVICE_NAME ?? service, url } : undefined;
}

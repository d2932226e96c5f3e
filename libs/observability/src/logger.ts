import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';
import { currentTraceIds } from './tracing';

export type { Logger } from 'pino';

/**
 * A JSON logger whose lines carry the service name and, inside a request, its request id (and,
 * when tracing is on, the active span's trace and span ids, to find a line's trace and back).
 * The logger exists before the configuration is validated (it reports the validation), so a level
 * pino does not know falls back to info here and is then reported as a bad LOG_LEVEL.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level: (level && Object.hasOwn(pino.levels.values, level)) || level === 'silent' ? level : 'info',
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const requestId = currentRequestId();
      const ids = currentTraceIds();
      if (ids) return requestId ? { requestId, ...ids } : ids;
      return requestId ? { requestId } : {};
    },
  });
}

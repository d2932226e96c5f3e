import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

const NOISY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Routes Nest's own log calls into the service's JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message instanceof Error) this.logger[level]({ err: message, context }, message.message);
    else if (typeof message === 'object') this.logger[level]({ ...(message as object), context });
    else this.logger[level]({ context }, String(message));
  }

  log(message: unknown, ...rest: unknown[]): void {
    // Nest's start-up chatter (every module and route) is for debugging, not for the service log.
    const context = rest[rest.length - 1];
    this.write(typeof context === 'string' && NOISY_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack, context); keep the stack.
    const stack = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
    if (stack) this.logger.error({ stack, context: rest[1] }, String(message));
    else this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
}

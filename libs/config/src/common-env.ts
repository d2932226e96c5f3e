import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsIntegerVar } from './env-validators';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Variables every service reads. Service-specific classes extend it. */
export class CommonEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/docintel';

  @Matches(/^(nats|tls|wss?):\/\/[^,]+(,(nats|tls|wss?):\/\/[^,]+)*$/, {
    message: 'must be one or more nats:// URLs separated by commas',
  })
  NATS_URL = 'nats://127.0.0.1:4222';

  /** Prefix for every subject and stream, so that deployments (and test runs) sharing a NATS server stay apart. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]*$/, { message: 'may contain only letters, digits, - and _' })
  NATS_PREFIX = '';

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsIntegerVar(100, 120_000, 'must be an integer number of milliseconds')
  RPC_TIMEOUT_MS = 10_000;

  @IsIntegerVar(0, 600_000, 'must be an integer number of milliseconds')
  SHUTDOWN_TIMEOUT_MS = 10_000;

  @IsIntegerVar(1, 200, 'must be an integer')
  DATABASE_POOL_SIZE = 10;

  @IsOptional()
  @IsString()
  INSTANCE_ID?: string;
}

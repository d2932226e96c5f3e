import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { CommonEnv } from '@docintel/config';

/** Every process serves HTTP: the gateway its API, the services /health and /metrics. */
export class ServiceEnv extends CommonEnv {
  @Type(() => Number)
  @IsInt({ message: 'must be a TCP port number' })
  @Min(0)
  @Max(65535)
  PORT = 0;

  @IsString()
  HOST = '127.0.0.1';
}

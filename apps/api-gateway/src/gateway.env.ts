import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceEnv } from '@docintel/runtime';

export class GatewayEnv extends ServiceEnv {
  @Type(() => Number)
  @IsInt({ message: 'must be a TCP port number' })
  @Min(0)
  @Max(65535)
  override PORT = 8080;

  /** Largest JSON request body accepted, in bytes. */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(100 * 1024 * 1024)
  JSON_BODY_LIMIT = 1024 * 1024;
}

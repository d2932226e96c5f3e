import { Type } from 'class-transformer';
import { IsInt, IsUrl, Max, Min } from 'class-validator';
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

  /** Where the storage service's HTTP port is reachable (file bytes stream there, never over NATS). */
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'must be an http(s) URL such as http://127.0.0.1:8081' },
  )
  STORAGE_SERVICE_URL = 'http://127.0.0.1:8081';

  /** Largest file a multipart upload may carry, in bytes; larger uploads get 413. */
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number of bytes' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  MAX_UPLOAD_BYTES = 5 * 1024 ** 3;
}

import {
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_STORAGE_SERVICE_URL,
  IsByteCountVar,
  IsIntegerVar,
  IsStorageServiceUrlVar,
} from '@docintel/config';
import { ServiceEnv } from '@docintel/runtime';

export class GatewayEnv extends ServiceEnv {
  // Validated as ServiceEnv's PORT; only the default differs.
  override PORT = 8080;

  /** Largest JSON request body accepted, in bytes. */
  @IsIntegerVar(1024, 100 * 1024 * 1024)
  JSON_BODY_LIMIT = 1024 * 1024;

  /** Where the storage service's HTTP port is reachable (file bytes stream there, never over NATS). */
  @IsStorageServiceUrlVar()
  STORAGE_SERVICE_URL = DEFAULT_STORAGE_SERVICE_URL;

  /** Largest file a multipart upload may carry, in bytes; larger uploads get 413. */
  @IsByteCountVar()
  MAX_UPLOAD_BYTES = DEFAULT_MAX_UPLOAD_BYTES;

  /**
   * How long a verified access token is trusted without reading it again, in ms; 0 reads it on
   * every request. A revocation reaches every gateway at once (Postgres LISTEN/NOTIFY); this
   * bounds how late it can be if that notification is lost.
   */
  @IsIntegerVar(0, 1000)
  AUTH_CACHE_MS = 1000;
}

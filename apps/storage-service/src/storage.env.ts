import { IsOptional, IsString, MinLength, NotContains } from 'class-validator';
import { DEFAULT_MAX_UPLOAD_BYTES, IsByteCountVar, IsHttpUrlVar } from '@docintel/config';
import { ServiceEnv } from '@docintel/runtime';

export class StorageEnv extends ServiceEnv {
  /** YAML or JSON file listing the providers; when unset, one LOCAL provider rooted at STORAGE_ROOT. */
  @IsOptional()
  @IsString()
  PROVIDERS_FILE?: string;

  /** Root of the default LOCAL provider; each namespace gets its own directory under it (`<root>/<namespace>`). */
  @IsString()
  STORAGE_ROOT = './data/storage';

  /**
   * Key for the HMAC of transfer grants, LOCAL presigned URLs and list cursors. Every storage
   * replica must share it. Unset: a random secret generated on the first start and stored in the
   * storage schema (table `secrets`), which every replica reads.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters (for example: openssl rand -hex 32)' })
  // Placeholders in published examples are public: a secret anyone can read signs nothing.
  @NotContains('CHANGE-ME', { message: 'is the example placeholder; generate a secret with openssl rand -hex 32' })
  STORAGE_SIGNING_SECRET?: string;

  /** Base URL clients use to reach the gateway; LOCAL presigned URLs point there. */
  @IsHttpUrlVar('https://docintel.example.com')
  PUBLIC_URL = 'http://127.0.0.1:8080';

  /** Largest file accepted by an upload, in bytes (also enforced on presigned LOCAL uploads). */
  @IsByteCountVar()
  MAX_UPLOAD_BYTES = DEFAULT_MAX_UPLOAD_BYTES;
}

export { SERVICE_ENV as STORAGE_ENV } from '@docintel/runtime';

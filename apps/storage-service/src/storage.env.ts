import { IsOptional, IsString } from 'class-validator';
import { ServiceEnv } from '@docintel/runtime';

export class StorageEnv extends ServiceEnv {
  /** YAML or JSON file listing the providers; when unset, one LOCAL provider rooted at STORAGE_ROOT. */
  @IsOptional()
  @IsString()
  PROVIDERS_FILE?: string;

  @IsString()
  STORAGE_ROOT = './data/storage';
}

export { SERVICE_ENV as STORAGE_ENV } from '@docintel/runtime';

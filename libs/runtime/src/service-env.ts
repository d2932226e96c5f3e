import { IsString } from 'class-validator';
import { CommonEnv, IsPortVar } from '@docintel/config';

/** Every process serves HTTP: the gateway its API, the services /health and /metrics. */
export class ServiceEnv extends CommonEnv {
  @IsPortVar()
  PORT = 0;

  @IsString()
  HOST = '127.0.0.1';
}

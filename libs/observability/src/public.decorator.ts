import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'docintel:public';

/** Marks a controller or route as reachable without an access token (health, metrics). */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);

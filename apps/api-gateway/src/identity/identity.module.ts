import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { SERVICE_ENV } from '@docintel/runtime';
import type { GatewayEnv } from '../gateway.env';
import { AuthGuard } from './auth.guard';
import { IDENTITY_CACHE, IdentityService } from './identity.service';
import { TokenCache } from './token-cache';
import { TokenRevocations } from './token-revocations';

@Module({
  providers: [
    { provide: IDENTITY_CACHE, useFactory: (env: GatewayEnv) => new TokenCache(env.AUTH_CACHE_MS), inject: [SERVICE_ENV] },
    IdentityService,
    TokenRevocations,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [IdentityService],
})
export class IdentityModule {}

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { IS_PUBLIC } from '@docintel/observability';
import { IdentityService } from './identity.service';
import type { Principal } from './principal';

export type AuthenticatedRequest = FastifyRequest & { principal: Principal };

/** Every route needs a valid token unless it is marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const ns = request.headers['x-namespace'];
    request.principal = await this.identity.authenticate(request.headers.authorization, Array.isArray(ns) ? ns[0] : ns);
    return true;
  }
}

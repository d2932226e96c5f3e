import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RpcContext } from '@docintel/contracts';
import type { AuthenticatedRequest } from './auth.guard';

/** The caller, as the services need to know it: request id, namespace and user. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): RpcContext => {
  const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return {
    requestId: String(req.id),
    namespaceId: req.principal?.namespaceId,
    namespaceName: req.principal?.namespaceName,
    userId: req.principal?.userId,
  };
});

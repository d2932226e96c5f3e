import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { OwnerProfileDto } from '@docintel/contracts';
import type { AuthenticatedRequest } from '../identity/auth.guard';

/**
 * The caller as shown beside what they create (ownerEmail, ...). The token gives the email; users
 * have no name or avatar that the API could set yet, so those stay empty.
 */
export const OwnerProfile = createParamDecorator((_: unknown, context: ExecutionContext): OwnerProfileDto => {
  const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return { email: req.principal?.email ?? '' };
});

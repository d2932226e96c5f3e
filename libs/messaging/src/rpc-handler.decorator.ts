import { SetMetadata } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';

export const RPC_HANDLER = Symbol('RPC_HANDLER');

export interface RpcHandlerMetadata {
  subject: string;
  /** When given, the payload is validated into this class before the handler sees it. */
  payload?: ClassConstructor<object>;
}

/**
 * Marks a provider method as the handler of a request/reply subject. The method receives
 * (payload, context) and returns the reply data, or throws a DomainError.
 */
export const RpcHandler = (subject: string, payload?: ClassConstructor<object>): MethodDecorator =>
  SetMetadata(RPC_HANDLER, { subject, payload } satisfies RpcHandlerMetadata);

import { SetMetadata } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import type { RpcCall, RpcContext } from '@docintel/contracts';
import type { JsonBytes } from './rpc-client';

export const RPC_HANDLER = Symbol('RPC_HANDLER');

export interface RpcHandlerMetadata {
  subject: string;
  /** When given, the payload is validated into this class before the handler sees it. */
  payload?: ClassConstructor<object>;
}

/**
 * What a handler of `RpcCall<Req, Res>` may be: it takes the validated payload and answers the
 * reply, or the reply's JSON as bytes when it already has them (sent as they are).
 */
export type RpcHandlerMethod<Req, Res> = (payload: Req, ctx: RpcContext) => Res | JsonBytes<Res> | Promise<Res | JsonBytes<Res>>;

/**
 * Marks a provider method as the handler of a call defined in contracts (libs/contracts
 * rpc-calls.ts). The method receives (payload, context), the payload validated into the call's
 * request class, and returns the reply data or throws a DomainError. A method whose parameters or
 * return type do not fit the call's payload and reply types does not compile.
 */
export function RpcHandler<Req, Res>(call: RpcCall<Req, Res>) {
  const metadata: RpcHandlerMetadata = { subject: call.subject, payload: call.request as ClassConstructor<object> | undefined };
  const mark = SetMetadata(RPC_HANDLER, metadata);
  return <M extends RpcHandlerMethod<Req, Res>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    mark(target, key, descriptor);
  };
}

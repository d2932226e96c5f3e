import type { FastifyReply } from 'fastify';
import type { JsonBytes } from '@docintel/messaging';

/** What Fastify sends with an object it serialises itself: the client sees no difference. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Sends JSON a service has already encoded (RpcClient.callJson) as the body, unchanged: parsing a
 * large reply only to serialise it again is the gateway's biggest cost on a page of files. For
 * routes with `@Res({ passthrough: true })`; a failure still reaches AllErrorsFilter as a thrown
 * DomainError, since callJson rejects before anything is set here.
 */
export function passJson<T>(reply: FastifyReply, json: JsonBytes<T>): JsonBytes<T> {
  void reply.type(JSON_UTF8);
  return json;
}

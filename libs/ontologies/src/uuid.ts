import { createHash } from 'node:crypto';

/** RFC 9562 name-based UUID (version 5, SHA-1): the same name in the same namespace gives the same id. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`not a UUID: ${namespace}`);
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 9562 namespace for URLs. */
export const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** Namespace of docintel's concept ids: uuidV5('https://docintel.dev/ontologies/concepts', URL_NAMESPACE). */
export const CONCEPT_NAMESPACE = uuidV5('https://docintel.dev/ontologies/concepts', URL_NAMESPACE);

import { TRANSFER_OPS, type TransferOp } from '@docintel/contracts';
import { openToken, signToken } from './signed-token';

/**
 * What a transfer grant lets its bearer do: stream one key of one provider in or out, until it
 * expires. `relay` grants are issued to the gateway for multipart uploads and the content
 * endpoint; `presigned` grants are the URLs handed to clients of LOCAL providers.
 */
export interface TransferGrant {
  providerId: string;
  /** The namespace it was issued to: the provider must still be visible to it when the transfer starts. */
  namespace: string;
  key: string;
  op: TransferOp;
  purpose: 'relay' | 'presigned';
  /** Epoch seconds; the grant is refused from then on (checked when a transfer starts). */
  expiresAt: number;
  maxBytes?: number;
  contentType?: string;
}

export type GrantRefusal = 'invalid' | 'expired';

interface Wire {
  p: string;
  n: string;
  k: string;
  o: TransferOp;
  u: 'r' | 'p';
  e: number;
  m?: number;
  t?: string;
}

export class TransferGrantSigner {
  constructor(private readonly key: Buffer) {}

  sign(grant: TransferGrant): string {
    const wire: Wire = {
      p: grant.providerId,
      n: grant.namespace,
      k: grant.key,
      o: grant.op,
      u: grant.purpose === 'relay' ? 'r' : 'p',
      e: grant.expiresAt,
    };
    if (grant.maxBytes !== undefined) wire.m = grant.maxBytes;
    if (grant.contentType) wire.t = grant.contentType;
    return signToken(this.key, wire);
  }

  /** The grant, or why it is refused: a bad signature or shape ('invalid') or a past expiry ('expired'). */
  verify(token: string, nowMs = Date.now()): TransferGrant | GrantRefusal {
    const w = openToken(this.key, token) as Partial<Wire> | null;
    if (
      !w ||
      typeof w.p !== 'string' ||
      typeof w.n !== 'string' ||
      typeof w.k !== 'string' ||
      !TRANSFER_OPS.includes(w.o as TransferOp) ||
      (w.u !== 'r' && w.u !== 'p') ||
      typeof w.e !== 'number' ||
      (w.m !== undefined && typeof w.m !== 'number') ||
      (w.t !== undefined && typeof w.t !== 'string')
    ) {
      return 'invalid';
    }
    if (w.e * 1000 <= nowMs) return 'expired';
    return {
      providerId: w.p,
      namespace: w.n,
      key: w.k,
      op: w.o as TransferOp,
      purpose: w.u === 'r' ? 'relay' : 'presigned',
      expiresAt: w.e,
      maxBytes: w.m,
      contentType: w.t,
    };
  }
}

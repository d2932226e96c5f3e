import isEmail from 'validator/lib/isEmail';

/**
 * What a token request must satisfy, what the token commands answer, and the constants the
 * identity schema's users share. Kept free of Nest, TypeORM and class-validator so that the CLI
 * (cli/identity-store.ts) checks the same rules as IdentityService without loading them.
 * `validator`'s isEmail is the one class-validator's isEmail calls.
 */
const NAMESPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Ten years: any longer is "never", and a date that far out must still print in `token list`. */
export const MAX_TOKEN_DAYS = 3650;

/** The Postgres channel a revocation is announced on; every gateway evicts the token from its cache. */
export const TOKEN_REVOKED_CHANNEL = 'docintel_token_revoked';

/** The first problem of a token request, as a detail of the VALIDATION_FAILED error; undefined when it is valid. */
export function tokenRequestProblem(opts: {
  namespace: string;
  email: string;
  expiresInDays?: number;
}): { field: string; problem: string } | undefined {
  if (!NAMESPACE_NAME.test(opts.namespace))
    return { field: 'namespace', problem: 'must be 1-63 letters, digits, ., _ or -, starting with a letter or digit' };
  if (!(typeof opts.email === 'string' && isEmail(opts.email))) return { field: 'user', problem: 'must be an email address' };
  const days = opts.expiresInDays;
  if (days !== undefined && !(Number.isInteger(days) && days > 0 && days <= MAX_TOKEN_DAYS))
    return { field: 'expiresInDays', problem: `must be a whole number of days from 1 to ${MAX_TOKEN_DAYS}` };
  return undefined;
}

/** A token as created: the secret is shown once, here. */
export interface CreatedToken {
  token: string;
  tokenId: string;
  namespace: string;
  email: string;
  expiresTime: number | null;
  createdNamespace: boolean;
  createdUser: boolean;
}

/** A token as listed: never its secret. */
export interface TokenSummary {
  id: string;
  name: string;
  email: string;
  namespace: string;
  createdTime: number;
  expiresTime: number | null;
  revokedTime: number | null;
}

import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** The row of the `secrets` table that holds the generated signing secret. */
export const SIGNING_SECRET_NAME = 'storage-signing-secret';

/**
 * The signing secret stored in the service's schema, generated on first start: 256 random bits,
 * never derived from anything known. Replicas that start together race to insert theirs; the
 * primary key keeps the first one and every replica then reads that same row.
 */
export async function loadOrCreateSigningSecret(ds: DataSource): Promise<{ secret: string; created: boolean }> {
  const candidate = randomBytes(32).toString('hex');
  const inserted = (await ds.query(
    `INSERT INTO secrets (name, value, created_time) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING name`,
    [SIGNING_SECRET_NAME, candidate, Date.now()],
  )) as unknown[];
  const rows = (await ds.query(`SELECT value FROM secrets WHERE name = $1`, [SIGNING_SECRET_NAME])) as Array<{ value: string }>;
  if (rows.length !== 1) throw new Error('The storage signing secret could not be stored or read');
  return { secret: rows[0].value, created: inserted.length === 1 };
}

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface DatabaseRole {
  /** The database URL, logged in as the role. */
  url: string;
  /** Drops what the role owns in the database, then the role. */
  drop(): Promise<void>;
}

/**
 * A login role that may create schemas and tables in the database but is not a superuser, so it
 * cannot CREATE EXTENSION for an untrusted extension such as pgvector: the database then behaves
 * like a server without that extension, whatever the machine has installed.
 */
export async function createNonSuperuserRole(databaseUrl: string): Promise<DatabaseRole> {
  const role = `t_role_${randomBytes(4).toString('hex')}`;
  // A password too: a server that asks for one over TCP (Testcontainers' PostgreSQL) needs it.
  const password = randomBytes(12).toString('hex');
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE "${role}" LOGIN NOSUPERUSER PASSWORD '${password}'`);
    await admin.query(`GRANT CREATE ON DATABASE "${database}" TO "${role}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        await c.query(`DROP OWNED BY "${role}" CASCADE`);
        await c.query(`DROP ROLE "${role}"`);
      } finally {
        await c.end();
      }
    },
  };
}

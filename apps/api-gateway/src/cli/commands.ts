import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MAX_TOKEN_DAYS } from '../identity/identity-rules';
import { connectIdentity, databaseUrl } from './database';
import { CliIdentity } from './identity-store';
import { UsageError, type CliValues } from './usage';
import { expiresInDays, listedTime } from './values';
import { DEV_TOKEN_NAMESPACE, DEV_TOKEN_USER, welcomeBanner } from './welcome';

const out = (line = '') => process.stdout.write(`${line}\n`);

/** Runs one command against the identity schema; resolves with the exit code. */
export async function runCommand(group: string, verb: string | undefined, arg: string | undefined, values: CliValues): Promise<number> {
  const db = await connectIdentity(await databaseUrl());
  const identity = new CliIdentity(db);
  try {
    const command = verb ? `${group} ${verb}` : group;
    switch (command) {
      case 'token create': {
        if (!values.namespace || !values.user) throw new UsageError('token create needs --namespace and --user');
        const created = await identity.createToken({
          namespace: values.namespace,
          email: values.user,
          name: values.name,
          expiresInDays: expiresInDays(values['expires-in-days'], MAX_TOKEN_DAYS),
        });
        if (created.createdNamespace) out(`Created namespace ${created.namespace}`);
        if (created.createdUser) out(`Created user ${created.email}`);
        out(`Token id: ${created.tokenId}`);
        out(`Expires: ${created.expiresTime ? new Date(created.expiresTime).toISOString() : 'never'}`);
        out('Store this token now; it is not shown again:');
        out(created.token);
        return 0;
      }
      case 'token revoke': {
        if (!arg) throw new UsageError('token revoke needs the token id');
        if (!(await identity.revokeToken(arg))) {
          process.stderr.write(`No token with id ${arg}\n`);
          return 1;
        }
        out(`Revoked token ${arg}`);
        return 0;
      }
      case 'token list': {
        const tokens = await identity.listTokens({ namespace: values.namespace, email: values.user });
        out(['id', 'namespace', 'user', 'name', 'created', 'expires', 'revoked'].join('\t'));
        for (const t of tokens)
          out(
            [t.id, t.namespace, t.email, t.name, listedTime(t.createdTime), listedTime(t.expiresTime), listedTime(t.revokedTime)].join(
              '\t',
            ),
          );
        return 0;
      }
      case 'member add': {
        if (!values.namespace || !values.user) throw new UsageError('member add needs --namespace and --user');
        await identity.addMember(values.namespace, values.user);
        out(`${values.user} is a member of ${values.namespace}`);
        return 0;
      }
      case 'dev-token': {
        out(await devToken(identity, values.file));
        return 0;
      }
      case 'welcome': {
        const token = await devToken(identity, values.file);
        process.stdout.write(welcomeBanner(values.url ?? (process.env.PUBLIC_URL || 'http://127.0.0.1:8080'), token));
        return 0;
      }
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } finally {
    await db.end();
  }
}

/** The development token saved in the file while it is still valid, else a new one (saved there). */
async function devToken(identity: CliIdentity, file = './data/.dev-token'): Promise<string> {
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (await identity.isValidToken(saved)) return saved;
  }
  const created = await identity.createToken({ namespace: DEV_TOKEN_NAMESPACE, email: DEV_TOKEN_USER, name: 'development' });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${created.token}\n`, { mode: 0o600 });
  return created.token;
}

/** The CLI's help text and argument errors: kept apart so that `--help` loads nothing else. */
export const USAGE = `docintel: administration of namespaces, users and access tokens

  token create --namespace <ns> --user <email> [--name <label>] [--expires-in-days <n>]
      Creates the namespace, the user and the membership when missing, then a new token
      (expiring after 1 to 3650 days, or never). The token is printed once, as the last line.
  token revoke <token-id>
  token list [--namespace <ns>] [--user <email>]
  member add --namespace <ns> --user <email>
  dev-token [--file <path>]
      Prints a development token for dev@docintel.local in namespace "default", reusing the one
      saved in the file (default ./data/.dev-token) while it is still valid.
  welcome [--url <url>] [--file <path>]
      What \`npm start\` prints once docintel runs: the API's URL as clients reach it (default
      PUBLIC_URL, else http://127.0.0.1:8080), its docs, and that development token.
  doctor
      Checks what \`npm start\` needs (Node.js, the build, PostgreSQL, pgvector, NATS with
      JetStream, the storage root, free ports) and says what to do about each problem
      (\`npm run docintel -- doctor\`, which runs without a build).

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/docintel).`;

export class UsageError extends Error {}

export interface CliValues {
  namespace?: string;
  user?: string;
  name?: string;
  'expires-in-days'?: string;
  file?: string;
  url?: string;
}

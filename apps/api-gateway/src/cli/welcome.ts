/** The namespace and user of the development token (`dev-token`, `welcome`). */
export const DEV_TOKEN_NAMESPACE = 'default';
export const DEV_TOKEN_USER = 'dev@docintel.local';

/**
 * What a developer sees once docintel is up: where the API runs and a token to call it with.
 * Written once, here: `npm start` (scripts/start.js) and the compose `welcome` service both print
 * it through the CLI's `welcome` command.
 */
export function welcomeBanner(url: string, token: string): string {
  const base = url.replace(/\/+$/, '');
  return (
    [
      '',
      `docintel is running at ${base}`,
      `API docs:          ${base}/api/docs`,
      `Development token (namespace "${DEV_TOKEN_NAMESPACE}", user ${DEV_TOKEN_USER}):`,
      `  ${token}`,
      `Try: curl -H "Authorization: Bearer ${token}" ${base}/api/core/providers`,
      '',
    ].join('\n') + '\n'
  );
}

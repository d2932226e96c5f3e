import { Alert, Anchor, Button, Code, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { createApi, describeError, statusOf, unwrap } from '../../api/client';
import { navigate } from '../../router/router';
import { safeNext } from '../../router/routes';
import { useSession } from '../../session/session';

/**
 * Sign in with a personal access token (the one `npm start` prints, or `docintel token create`).
 * The token is tried against the API before it is kept, so a wrong one is refused here.
 */
export function SignInPage({ next }: { next: string | null }) {
  const { signIn, notice } = useSession();
  const [token, setToken] = useState('');
  const [namespace, setNamespace] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const credentials = { token: token.trim(), namespace: namespace.trim() || null };
    if (!credentials.token) {
      setError('Paste a personal access token.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unwrap(createApi(credentials, () => undefined).GET('/api/core/providers', { params: { query: { page: 0, pageSize: 1 } } }));
      signIn(credentials);
      navigate(safeNext(next), { replace: true });
    } catch (err) {
      const status = statusOf(err);
      setError(
        status === 401
          ? `This token was not accepted (401 Unauthorized): ${err instanceof Error ? err.message : ''}. Check that it was copied whole and has not expired or been revoked.`
          : status === 403
            ? `The token is valid but may not use namespace "${credentials.namespace}" (403 Forbidden). Leave the namespace empty to use the token's own.`
            : `Signing in failed: ${describeError(err)}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Container size={460} py={64}>
      <Title order={1} ta="center">
        docintel
      </Title>
      <Text c="dimmed" ta="center" mb="lg">
        Sign in to the web console
      </Text>
      <Paper withBorder shadow="sm" p="lg" radius="md" component="main">
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Sign in">
          <Stack>
            {notice && (
              <Alert color="yellow" title="Signed out" role="status">
                {notice}
              </Alert>
            )}
            <PasswordInput
              label="Personal access token"
              description="Starts with dit_. npm start prints a development token."
              placeholder="dit_…"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              autoComplete="off"
              autoFocus
              required
              data-autofocus
            />
            <TextInput
              label="Namespace (optional)"
              description="Only for a user in several namespaces; sent as X-Namespace."
              value={namespace}
              onChange={(e) => setNamespace(e.currentTarget.value)}
              autoComplete="off"
            />
            {error && (
              <Alert color="red" title="Could not sign in" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy} fullWidth>
              Sign in
            </Button>
            <Text size="xs" c="dimmed">
              The token is kept in this browser (local storage) until you sign out or it expires, so new tabs open signed in; it is sent as{' '}
              <Code>Authorization: Bearer</Code>. Create another with <Code>npm run docintel -- token create</Code>. API reference:{' '}
              <Anchor href="/api/docs" size="xs">
                /api/docs
              </Anchor>
              .
            </Text>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}

import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { describeError, unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';

/** The storage providers the namespace may use, each with its items and its indexed files. */
export function ProvidersPage() {
  const api = useApi();
  const providers = useAsync(
    () => unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 100, sortBy: 'name' } } })),
    [api],
  );

  return (
    <Stack>
      <Title order={1}>Storage providers</Title>
      <Text c="dimmed">Where your documents are stored. Browse a provider to upload and organise files, then index them.</Text>
      {providers.error ? (
        <Alert color="red" title="Could not list the providers" role="alert">
          {describeError(providers.error)}
        </Alert>
      ) : !providers.data ? (
        <Loader aria-label="Loading providers" />
      ) : providers.data.data.length === 0 ? (
        <Text>No provider is shared with this namespace.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {providers.data.data.map((p) => (
            <Card key={p.id.id} withBorder padding="lg" component="section" aria-label={p.name}>
              <Group justify="space-between" mb="xs">
                <Title order={2} size="h4">
                  {p.name}
                </Title>
                <Badge variant="light">{p.type}</Badge>
              </Group>
              <Text size="sm" c="dimmed" mb="md">
                {p.system ? 'System provider' : 'Provider'} · id {p.id.id.slice(0, 8)}…
              </Text>
              <Group>
                <Button component={Link} href={paths.items(p.id.id)} aria-label={`Browse ${p.name}`}>
                  Browse
                </Button>
                <Button component={Link} href={paths.files(p.id.id)} variant="light" aria-label={`Indexed files of ${p.name}`}>
                  Indexed files
                </Button>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from '../router/router';
import { paths } from '../router/routes';

export function NotFoundPage() {
  return (
    <Stack align="flex-start">
      <Title order={1}>Page not found</Title>
      <Text>The console has no page at this address.</Text>
      <Button component={Link} href={paths.providers()}>
        Go to storage providers
      </Button>
    </Stack>
  );
}

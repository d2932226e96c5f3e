import { Anchor, AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { unwrap } from '../api/client';
import { useAsync } from '../lib/use-async';
import { Link, useLocation } from '../router/router';
import { paths, type Route } from '../router/routes';
import { useApi, useSession } from '../session/session';
import classes from './Shell.module.css';

/**
 * The frame of every signed-in page: a header (burger on small screens, namespace, sign out) and
 * a navbar of the console's sections. A new section is one more NavLink here.
 */
export function Shell({ route, children }: { route: Route; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const { credentials, signOut } = useSession();

  // On a phone the navbar covers the page: close it once a link was followed.
  useEffect(() => close(), [location, close]);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className={classes.skip}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls="console-navbar"
            />
            <Anchor component={Link} href={paths.providers()} underline="never" fw={700} size="lg" c="inherit">
              docintel
            </Anchor>
            <Text c="dimmed" size="sm" visibleFrom="xs">
              console
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {credentials?.namespace && (
              <Tooltip label="Namespace sent with every request (X-Namespace)">
                <Badge variant="light" visibleFrom="xs">
                  <VisuallyHidden>Namespace </VisuallyHidden>
                  {credentials.namespace}
                </Badge>
              </Tooltip>
            )}
            <Button variant="default" size="xs" onClick={() => signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="xs"
        id="console-navbar"
        aria-label="Console sections"
        // A link to the page already shown changes no location: close the phone's navbar anyway.
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('a[href]')) close();
        }}
      >
        <AppShell.Section grow component={ScrollArea}>
          <Navigation route={route} />
        </AppShell.Section>
        <AppShell.Section>
          <NavLink
            href="/api/docs"
            component="a"
            target="_blank"
            rel="noreferrer"
            label="API documentation"
            description="OpenAPI, opens in a new tab"
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

function Navigation({ route }: { route: Route }) {
  const api = useApi();
  const providers = useAsync(() => unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 100 } } })), [api]);
  const current = route.name === 'items' || route.name === 'files' ? route.providerId : null;
  // A provider's entry is open while one of its pages is shown, and when the user opened it.
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  return (
    <nav aria-label="Main">
      <NavLink component={Link} href={paths.ask()} label="Ask everything" active={route.name === 'ask'} />
      <NavLink component={Link} href={paths.providers()} label="Storage providers" active={route.name === 'providers'} />
      <NavLink
        component={Link}
        href={paths.collections()}
        label="Collections"
        active={route.name === 'collections' || route.name === 'collection'}
      />
      <NavLink component={Link} href={paths.jobs()} label="Ask and extract" active={route.name === 'jobs'} />
      {(providers.data?.data ?? []).map((p) => (
        <NavLink
          key={p.id.id}
          component="button"
          type="button"
          label={p.name}
          description={p.type}
          opened={opened[p.id.id] ?? current === p.id.id}
          onChange={(open) => setOpened((o) => ({ ...o, [p.id.id]: open }))}
          childrenOffset="md"
        >
          <NavLink component={Link} href={paths.items(p.id.id)} label="Items" active={route.name === 'items' && current === p.id.id} />
          <NavLink
            component={Link}
            href={paths.files(p.id.id)}
            label="Indexed files"
            active={route.name === 'files' && current === p.id.id}
          />
        </NavLink>
      ))}
      <NavLink component={Link} href={paths.rules()} label="Rules" active={route.name === 'rules' || route.name === 'rule'} />
    </nav>
  );
}

import { Center, Loader, MantineProvider } from '@mantine/core';
import { useEffect } from 'react';
import { CollectionPage } from './features/collections/CollectionPage';
import { CollectionsPage } from './features/collections/CollectionsPage';
import { DocumentRoute } from './features/document/DocumentRoute';
import { FilePage } from './features/files/FilePage';
import { FilesPage } from './features/files/FilesPage';
import { ItemsPage } from './features/items/ItemsPage';
import { JobsPage } from './features/jobs/JobsPage';
import { ProvidersPage } from './features/providers/ProvidersPage';
import { RulePage } from './features/rules/RulePage';
import { RulesPage } from './features/rules/RulesPage';
import { SignInPage } from './features/sign-in/SignInPage';
import { NotFoundPage } from './layout/NotFoundPage';
import { Shell } from './layout/Shell';
import { navigate, useLocation, useRoute } from './router/router';
import { paths, type Route } from './router/routes';
import { SessionProvider, useSession } from './session/session';
import { theme } from './theme';

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <SessionProvider>
        <Pages />
      </SessionProvider>
    </MantineProvider>
  );
}

/** Signed out: only the sign-in page (any other URL comes back to it after sign-in). */
function Pages() {
  const route = useRoute();
  const location = useLocation();
  const { credentials } = useSession();
  const redirect =
    !credentials && route.name !== 'signIn'
      ? paths.signIn(route.name === 'home' ? null : location)
      : route.name === 'home'
        ? paths.providers()
        : null;

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  if (redirect) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (route.name === 'signIn') return <SignInPage next={route.next} />;
  return (
    <Shell route={route}>
      <Page route={route} />
    </Shell>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
    case 'providers':
      return <ProvidersPage />;
    case 'items':
      return <ItemsPage key={route.providerId} providerId={route.providerId} dir={route.dir} />;
    case 'files':
      return <FilesPage key={route.providerId} providerId={route.providerId} page={route.page} />;
    case 'file':
      return <FilePage key={route.fileId} fileId={route.fileId} />;
    case 'document':
      return <DocumentRoute key={route.fileId} fileId={route.fileId} target={route.target} />;
    case 'collections':
      return <CollectionsPage page={route.page} />;
    case 'collection':
      return <CollectionPage key={route.collectionId} collectionId={route.collectionId} page={route.page} />;
    case 'jobs':
      return <JobsPage key={route.kind} kind={route.kind} jobId={route.jobId} />;
    case 'rules':
      return <RulesPage />;
    case 'rule':
      return <RulePage key={route.triggerId} triggerId={route.triggerId} />;
    case 'signIn':
    case 'notFound':
      return <NotFoundPage />;
  }
}

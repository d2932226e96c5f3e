import { Center, Loader, MantineProvider } from '@mantine/core';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { SignInPage } from './features/sign-in/SignInPage';
import { NotFoundPage } from './layout/NotFoundPage';
import { Shell } from './layout/Shell';
import { navigate, useLocation, useRoute } from './router/router';
import { paths, type Route } from './router/routes';
import { SessionProvider, useSession } from './session/session';
import { theme } from './theme';

/**
 * Every page but sign-in is its own chunk, loaded when first opened: the sign-in page (the first
 * thing a new tab shows) does not wait for the rules editor's schema checker, the jobs' panels or
 * the document viewer.
 */
function page<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => load().then((component) => ({ default: component })));
}
const AskPage = page(() => import('./features/ask/AskPage').then((m) => m.AskPage));
const CollectionPage = page(() => import('./features/collections/CollectionPage').then((m) => m.CollectionPage));
const CollectionsPage = page(() => import('./features/collections/CollectionsPage').then((m) => m.CollectionsPage));
const DocumentRoute = page(() => import('./features/document/DocumentRoute').then((m) => m.DocumentRoute));
const FilePage = page(() => import('./features/files/FilePage').then((m) => m.FilePage));
const FilesPage = page(() => import('./features/files/FilesPage').then((m) => m.FilesPage));
const ItemsPage = page(() => import('./features/items/ItemsPage').then((m) => m.ItemsPage));
const JobsPage = page(() => import('./features/jobs/JobsPage').then((m) => m.JobsPage));
const ProvidersPage = page(() => import('./features/providers/ProvidersPage').then((m) => m.ProvidersPage));
const RulePage = page(() => import('./features/rules/RulePage').then((m) => m.RulePage));
const RulesPage = page(() => import('./features/rules/RulesPage').then((m) => m.RulesPage));

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
      <Suspense fallback={<Loader aria-label="Loading page" />}>
        <Page route={route} />
      </Suspense>
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
    case 'ask':
      return <AskPage question={route.question} jobId={route.jobId} />;
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

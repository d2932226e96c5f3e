import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { DocumentTarget } from '../../router/document-links';

// Its own chunk (with KaTeX; pdf.js is a further one): the rest of the console never loads it.
const DocumentPage = lazy(() => import('./DocumentPage').then((m) => ({ default: m.DocumentPage })));

/** The document view of a file, opened at `target`. */
export function DocumentRoute({ fileId, target }: { fileId: string; target: DocumentTarget }) {
  return (
    <Suspense fallback={<Loader aria-label="Loading document view" />}>
      <DocumentPage fileId={fileId} target={target} />
    </Suspense>
  );
}

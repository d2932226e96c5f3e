import { Alert, Anchor, Button, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { describeError, statusOf, unwrap, type Api, type IndexedFile } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { Link } from '../../router/router';
import { paths } from '../../router/routes';
import { useApi } from '../../session/session';
import classes from './document.module.css';
import { DocumentTree } from './DocumentTree';
import { hasTarget, targetQuery, type DocumentTarget } from '../../router/document-links';
import { openPdf, type PDFDocumentProxy } from './pdf';
import { ImageView, PdfView, type PageTarget } from './PageView';
import { citedSentence, type TextRange } from './quote';
import { indexTree, nodeLabel, pageCount, resolveTarget, type DocumentNode } from './tree';

type Kind = 'pdf' | 'image' | 'tree';

/** Which view a file gets: pages for PDFs, the picture for images, the node tree for the rest. */
function kindOf(file: IndexedFile): Kind {
  const parsing = file.additionalInfos?.parsing as { format?: string } | undefined;
  const media = (file.mediaType ?? '').toLowerCase();
  if (parsing?.format === 'pdf' || media === 'application/pdf') return 'pdf';
  if (parsing?.format === 'image' || media.startsWith('image/')) return 'image';
  return 'tree';
}

/** Image types a browser shows in an <img> (TIFF is not one of them). */
const SHOWN_IMAGES = /^image\/(png|jpe?g|gif|webp|bmp|avif|svg\+xml)$/;

async function fileBytes(api: Api, file: IndexedFile, signal: AbortSignal): Promise<Blob> {
  return unwrap(
    api.GET('/api/core/providers/{providerId}/items/content', {
      params: { path: { providerId: file.providerId.id }, query: { key: file.path } },
      parseAs: 'blob',
      signal,
    }),
  );
}

/**
 * A file read as a document: a PDF's pages or an image with the boxes of its nodes, or the node
 * tree as a readable document; opened at the place the URL names (a citation's node, page and box,
 * cell or lines), which is shown, highlighted and focused.
 */
export function DocumentPage({ fileId, target }: { fileId: string; target: DocumentTarget }) {
  const api = useApi();
  const file = useAsync(() => unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: fileId } } })), [api, fileId]);
  const tree = useAsync(
    // format=json answers the root node (the operation also answers Markdown or text, hence the union type).
    async () =>
      (await unwrap(
        api.GET('/api/core/files/{id}/document', { params: { path: { id: fileId }, query: { format: 'json' } } }),
      )) as DocumentNode,
    [api, fileId],
  );
  const index = useMemo(() => (tree.data ? indexTree(tree.data) : null), [tree.data]);
  const focusKey = targetQuery(target);
  // The route makes a new target object on every render: the query string is its identity.
  const resolved = useMemo(() => (index ? resolveTarget(index, target) : null), [index, focusKey]);
  // The sentence of the cited node the citation quotes; null when only the whole node can be told.
  const mark = useMemo(() => (resolved?.node ? citedSentence(resolved.node, target) : null), [resolved, focusKey]);

  const kind = file.data ? kindOf(file.data) : null;
  const [unreadable, setUnreadable] = useState(false);
  const picture = kind === 'image' && !!file.data && SHOWN_IMAGES.test(file.data.mediaType ?? '');
  const bytes = useAsync(
    (signal) => (file.data && (kind === 'pdf' || picture) ? fileBytes(api, file.data, signal) : Promise.resolve(null)),
    [api, file.data?.id.id, kind, picture],
  );
  const pdf = useAsync(async () => (kind === 'pdf' && bytes.data ? openPdf(await bytes.data.arrayBuffer()) : null), [bytes.data, kind]);
  useEffect(() => () => void pdf.data?.destroy(), [pdf.data]);
  const imageUrl = useMemo(() => (picture && bytes.data ? URL.createObjectURL(bytes.data) : null), [picture, bytes.data]);
  useEffect(() => () => (imageUrl ? URL.revokeObjectURL(imageUrl) : undefined), [imageUrl]);

  const [mode, setMode] = useState<'pages' | 'text'>('pages');

  if (file.error || tree.error) {
    const err = file.error ?? tree.error;
    return (
      <Stack>
        <Alert color={statusOf(err) === 409 ? 'yellow' : 'red'} title="Could not open this document" role="alert">
          {statusOf(err) === 409
            ? 'This file has not been indexed yet: its document is readable once indexation succeeds.'
            : describeError(err)}
        </Alert>
        <Anchor component={Link} href={paths.file(fileId)}>
          Back to the file
        </Anchor>
      </Stack>
    );
  }
  if (!file.data || !index || !resolved) return <Loader aria-label="Loading document" />;

  const f = file.data;
  const pageTarget: PageTarget = { highlightId: resolved.node?.id ?? null, mark, citedBox: resolved.box, focusKey };
  const paged = (kind === 'pdf' || (picture && !unreadable)) && mode === 'pages';
  const missed = hasTarget(target) && !resolved.node && !resolved.box && resolved.page === null;

  let view;
  if (paged && kind === 'pdf') {
    view = pdf.error ? (
      <Alert color="red" role="alert" title="The PDF could not be shown">
        {describeError(pdf.error)}
      </Alert>
    ) : bytes.error ? (
      <Alert color="red" role="alert" title="The file could not be read">
        {describeError(bytes.error)}
      </Alert>
    ) : !pdf.data ? (
      <Loader aria-label="Loading PDF" />
    ) : (
      <PdfView doc={pdf.data as PDFDocumentProxy} index={index} initialPage={resolved.page ?? 1} target={pageTarget} />
    );
  } else if (paged && imageUrl) {
    view = (
      <ImageView
        src={imageUrl}
        index={index}
        alt={`${f.name}, with the boxes of the text read from it`}
        target={pageTarget}
        onUnreadable={() => setUnreadable(true)}
      />
    );
  } else if (paged) {
    view = bytes.error ? (
      <Alert color="red" role="alert">
        {describeError(bytes.error)}
      </Alert>
    ) : (
      <Loader aria-label="Loading image" />
    );
  } else {
    view = <TreeView root={index.root} highlightId={resolved.node?.id ?? null} mark={mark} focusKey={focusKey} name={f.name} />;
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            {f.name}
          </Title>
          <Text size="sm" c="dimmed">
            {describeKind(kind, f, pageCount(index))}
          </Text>
        </Stack>
        <Group gap="xs">
          {(kind === 'pdf' || picture) && !unreadable && (
            <SegmentedControl
              aria-label="View"
              value={mode}
              onChange={(v) => setMode(v as 'pages' | 'text')}
              data={[
                { value: 'pages', label: kind === 'pdf' ? 'Pages' : 'Image' },
                { value: 'text', label: 'Text' },
              ]}
            />
          )}
          <Button variant="subtle" component={Link} href={paths.file(fileId)}>
            File details
          </Button>
        </Group>
      </Group>
      {kind === 'image' && (!picture || unreadable) && (
        <Alert color="blue" role="status">
          This browser cannot show {f.mediaType ?? 'this image'}; the text read from it is shown instead.
        </Alert>
      )}
      {missed && (
        <Alert color="yellow" role="status">
          The place this link names was not found in the document (it may have been reindexed since).
        </Alert>
      )}
      {resolved.node && (
        <Text size="sm" role="status" data-target-label>
          Showing {nodeLabel(resolved.node, 120)}
          {resolved.page ? ` (page ${resolved.page})` : ''}
        </Text>
      )}
      {resolved.node && mark && paged && <CitedSentence text={resolved.node.text} mark={mark} />}
      {view}
    </Stack>
  );
}

/** On a page, where only the node's box is drawn: the sentence the citation quotes, in words. */
function CitedSentence({ text, mark }: { text: string; mark: TextRange }) {
  return (
    <Text size="sm" data-cited-quote>
      Cited: “<mark className={classes.cited}>{text.slice(mark.start, mark.end)}</mark>”
    </Text>
  );
}

function describeKind(kind: Kind | null, f: IndexedFile, pages: number): string {
  const media = f.mediaType ?? 'unknown type';
  if (kind === 'pdf') return `PDF, ${pages} page${pages === 1 ? '' : 's'}: boxes show where each node was read.`;
  if (kind === 'image') return `${media}: boxes show the text read by OCR.`;
  return `${media}, as the node tree reads it.`;
}

/** The node tree as a document, scrolled to and focusing the highlighted node. */
function TreeView({
  root,
  highlightId,
  mark,
  focusKey,
  name,
}: {
  root: DocumentNode;
  highlightId: string | null;
  mark: TextRange | null;
  focusKey: string;
  name: string;
}) {
  const box = useRef<HTMLDivElement | null>(null);
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!highlightId || done.current === focusKey || !box.current) return;
    const el = box.current.querySelector<HTMLElement>('[data-highlighted="true"]');
    if (!el) return;
    done.current = focusKey;
    el.focus({ preventScroll: true });
    // A long paragraph may not fit the screen: its cited sentence is what must be seen.
    (el.querySelector<HTMLElement>('[data-cited-sentence]') ?? el).scrollIntoView({ block: 'center' });
  });
  return (
    <div ref={box}>
      <DocumentTree
        root={root}
        highlightId={highlightId}
        mark={mark}
        label={`${name}, as read`}
        lineNumbers={!/\.(html?|xhtml)$/i.test(name)}
      />
    </div>
  );
}

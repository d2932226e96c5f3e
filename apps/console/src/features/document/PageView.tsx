import { ActionIcon, Alert, Button, Group, Loader, Pagination, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { BoxOverlay } from './BoxOverlay';
import classes from './document.module.css';
import { FormulaView, HighlightProvider, TableView } from './DocumentTree';
import { fitScale } from './geometry';
import type { Box } from '../../router/document-links';
import type { PDFDocumentProxy } from './pdf';
import type { TextRange } from './quote';
import { boxesOnPage, nodesOnPage, pagesWith, type TreeIndex } from './tree';

type PDFPageProxy = Awaited<ReturnType<PDFDocumentProxy['getPage']>>;

/** What both page views (PDF, image) are told. */
export interface PageTarget {
  highlightId: string | null;
  /** The cited sentence of the highlighted node, marked where its text is shown (a table cell below the page). */
  mark: TextRange | null;
  citedBox: Box | null;
  /** Changes when the URL names another place: the view then goes there and takes the focus. */
  focusKey: string;
}

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** The toolbar over a page: the page selector, zoom and whether boxes are drawn. */
function Toolbar({
  page,
  pages,
  onPage,
  zoom,
  onZoom,
  showBoxes,
  onShowBoxes,
}: {
  page: number;
  pages: number;
  onPage: (p: number) => void;
  zoom: number;
  onZoom: (z: number) => void;
  showBoxes: boolean;
  onShowBoxes: (v: boolean) => void;
}) {
  const i = ZOOMS.indexOf(zoom);
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          size="sm"
          siblings={1}
          boundaries={1}
          aria-label="Page"
          getItemProps={(p) => ({ 'aria-label': `Page ${p}`, 'aria-current': p === page ? 'page' : undefined })}
          getControlProps={(control) => ({
            'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control],
          })}
        />
      ) : (
        <span />
      )}
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed" aria-live="polite" data-page-status>
          Page {page} of {pages}
        </Text>
        <Tooltip label="Zoom out">
          <ActionIcon variant="default" aria-label="Zoom out" disabled={i <= 0} onClick={() => onZoom(ZOOMS[Math.max(0, i - 1)])}>
            −
          </ActionIcon>
        </Tooltip>
        <Button variant="default" size="compact-sm" onClick={() => onZoom(1)} aria-label={`Zoom ${Math.round(zoom * 100)}%, fit to width`}>
          {Math.round(zoom * 100)}%
        </Button>
        <Tooltip label="Zoom in">
          <ActionIcon
            variant="default"
            aria-label="Zoom in"
            disabled={i >= ZOOMS.length - 1}
            onClick={() => onZoom(ZOOMS[Math.min(ZOOMS.length - 1, i + 1)])}
          >
            +
          </ActionIcon>
        </Tooltip>
        <Switch size="sm" label="Boxes" checked={showBoxes} onChange={(e) => onShowBoxes(e.currentTarget.checked)} />
      </Group>
    </Group>
  );
}

/** Scrolls the highlighted element of `container` into view and focuses it, once per focusKey. */
function useGoToHighlight(container: RefObject<HTMLElement | null>, focusKey: string, ready: boolean) {
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || done.current === focusKey || !container.current) return;
    // The box on the page, else the node in the tables and formulas below it.
    const el =
      container.current.querySelector<HTMLElement>('[data-box][data-highlighted="true"]') ??
      container.current.querySelector<HTMLElement>('[data-highlighted="true"]');
    if (!el) return;
    done.current = focusKey;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center', inline: 'center' });
  });
}

/** A PDF: one page at a time rendered by pdf.js, its node boxes over it, its tables and formulas below. */
export function PdfView({
  doc,
  index,
  initialPage,
  target,
}: {
  doc: PDFDocumentProxy;
  index: TreeIndex;
  initialPage: number;
  target: PageTarget;
}) {
  const pages = doc.numPages;
  const [page, setPage] = useState(() => clampPage(initialPage, pages));
  // A new target (a link followed) goes to its page.
  useEffect(() => setPage(clampPage(initialPage, pages)), [target.focusKey, initialPage, pages]);
  const [proxy, setProxy] = useState<PDFPageProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setProxy(null);
    doc.getPage(page).then(
      (p) => live && setProxy(p),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [doc, page]);

  const [zoom, setZoom] = useState(1);
  const [showBoxes, setShowBoxes] = useState(true);
  const { ref: sizer, width: available } = useElementSize();
  // Until the new page is loaded the previous one is not drawn (its boxes would be the new page's).
  const current = proxy && proxy.pageNumber === page ? proxy : null;
  const base = current?.getViewport({ scale: 1 });
  // Rounded so that a scrollbar coming and going does not re-render the page for ever.
  const scale = base ? Math.round(fitScale(base.width, available - 18, 1.5) * zoom * 100) / 100 : 0;
  const size = base ? { width: base.width * scale, height: base.height * scale } : null;

  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [rendered, setRendered] = useState<string | null>(null);
  const renderKey = `${page}@${scale}`;
  useEffect(() => {
    if (!current || !canvas.current || !(scale > 0)) return;
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const viewport = current.getViewport({ scale: scale * ratio });
    const c = canvas.current;
    c.width = Math.floor(viewport.width);
    c.height = Math.floor(viewport.height);
    const task = current.render({ canvas: c, viewport });
    task.promise.then(
      () => setRendered(renderKey),
      (e: unknown) => {
        if ((e as { name?: string })?.name !== 'RenderingCancelledException') setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => task.cancel();
  }, [current, scale, renderKey]);

  const boxes = useMemo(() => boxesOnPage(index, page), [index, page]);
  const root = useRef<HTMLDivElement | null>(null);
  useGoToHighlight(root, target.focusKey, !!size && page === clampPage(initialPage, pages));

  return (
    <Stack gap="sm" ref={root}>
      <Toolbar page={page} pages={pages} onPage={setPage} zoom={zoom} onZoom={setZoom} showBoxes={showBoxes} onShowBoxes={setShowBoxes} />
      {error && (
        <Alert color="red" role="alert" title="This page could not be rendered">
          {error}
        </Alert>
      )}
      <div ref={sizer}>
        <div className={classes.viewport} tabIndex={zoom > 1 ? 0 : -1} aria-label={zoom > 1 ? 'Page, scrollable' : undefined}>
          {size ? (
            <div className={classes.page} style={{ width: size.width, height: size.height }} data-page={page}>
              <canvas
                key={renderKey}
                ref={canvas}
                role="img"
                aria-label={`Page ${page} of ${pages}`}
                data-rendered={rendered === renderKey ? 'true' : 'false'}
              />
              <BoxOverlay
                boxes={boxes}
                scale={scale}
                size={size}
                page={page}
                highlightId={target.highlightId}
                citedBox={target.citedBox}
                hideBoxes={!showBoxes}
              />
            </div>
          ) : (
            <Loader aria-label={`Loading page ${page}`} />
          )}
        </div>
      </div>
      <HighlightProvider id={target.highlightId} mark={target.mark}>
        <OnThisPage index={index} page={page} onPage={setPage} />
      </HighlightProvider>
    </Stack>
  );
}

const clampPage = (p: number, pages: number) => Math.min(Math.max(1, Math.round(p) || 1), Math.max(1, pages));

/** An image with its OCR boxes over it. */
export function ImageView({
  src,
  index,
  alt,
  target,
  onUnreadable,
}: {
  src: string;
  index: TreeIndex;
  alt: string;
  target: PageTarget;
  onUnreadable: () => void;
}) {
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [zoom, setZoom] = useState(1);
  const [showBoxes, setShowBoxes] = useState(true);
  const { ref: sizer, width: available } = useElementSize();
  const scale = natural ? Math.round(fitScale(natural.width, available - 18, 1) * zoom * 1000) / 1000 : 0;
  const size = natural ? { width: natural.width * scale, height: natural.height * scale } : null;
  const boxes = useMemo(() => boxesOnPage(index, 1), [index]);
  const pageRef = useRef<HTMLDivElement | null>(null);
  useGoToHighlight(pageRef, target.focusKey, !!size);
  return (
    <Stack gap="sm">
      <Toolbar page={1} pages={1} onPage={() => undefined} zoom={zoom} onZoom={setZoom} showBoxes={showBoxes} onShowBoxes={setShowBoxes} />
      <div ref={sizer}>
        <div className={classes.viewport} tabIndex={zoom > 1 ? 0 : -1}>
          <div
            ref={pageRef}
            className={classes.page}
            style={size ? { width: size.width, height: size.height } : { width: 'fit-content' }}
            data-page={1}
          >
            <img
              src={src}
              alt={alt}
              onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
              onError={onUnreadable}
              style={size ? undefined : { visibility: 'hidden', maxWidth: '100%' }}
            />
            {size && (
              <BoxOverlay
                boxes={boxes}
                scale={scale}
                size={size}
                page={1}
                highlightId={target.highlightId}
                citedBox={target.citedBox}
                hideBoxes={!showBoxes}
              />
            )}
          </div>
        </div>
      </div>
    </Stack>
  );
}

/** The tables and formulas of the current page, rendered; and where the others are. */
function OnThisPage({ index, page, onPage }: { index: TreeIndex; page: number; onPage: (p: number) => void }) {
  const tables = useMemo(() => nodesOnPage(index, page, ['table']), [index, page]);
  const formulas = useMemo(() => nodesOnPage(index, page, ['formula']), [index, page]);
  const elsewhere = useMemo(() => pagesWith(index, ['table', 'formula']).filter((p) => p !== page), [index, page]);
  let content: ReactNode;
  if (tables.length === 0 && formulas.length === 0) content = <Text c="dimmed">No table or formula was found on this page.</Text>;
  else
    content = (
      <Stack gap="sm">
        {tables.map((t, i) => (
          <TableView key={t.id} table={t} caption={`Table ${i + 1} of page ${page}`} />
        ))}
        {formulas.map((f) => (
          <FormulaView key={f.id} node={f} />
        ))}
      </Stack>
    );
  return (
    <section aria-labelledby="on-this-page">
      <Title order={2} size="h4" id="on-this-page" mb="xs">
        Tables and formulas on page {page}
      </Title>
      {content}
      {elsewhere.length > 0 && (
        <Group gap={4} mt="xs">
          <Text size="sm" c="dimmed">
            Also on pages:
          </Text>
          {elsewhere.slice(0, 30).map((p) => (
            <Button key={p} size="compact-xs" variant="light" onClick={() => onPage(p)} aria-label={`Go to page ${p}`}>
              {p}
            </Button>
          ))}
        </Group>
      )}
    </section>
  );
}

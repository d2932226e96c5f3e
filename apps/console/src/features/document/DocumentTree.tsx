import { Code, Table, Text, Title, Typography } from '@mantine/core';
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { createContext, useContext, useMemo, type HTMLAttributes, type ReactNode } from 'react';
import classes from './document.module.css';
import { markRuns, type TextRange } from './quote';
import { formulaLatex, lineRange, pageOf, tableRows, textRuns, typeName, type DocumentNode } from './tree';

/** What every node of a rendered tree needs to know: which node is highlighted. */
const Highlight = createContext<string | null>(null);

/** The cited sentence of the highlighted node, marked in its text; null marks nothing (the whole node is cited). */
export type CitedMark = TextRange | null;
const Mark = createContext<CitedMark>(null);

/** Highlights the node `id` (and in it the sentence `mark`) in the tables, formulas and trees rendered inside. */
export const HighlightProvider = ({ id, mark = null, children }: { id: string | null; mark?: CitedMark; children: ReactNode }) => (
  <Highlight.Provider value={id}>
    <Mark.Provider value={id ? mark : null}>{children}</Mark.Provider>
  </Highlight.Provider>
);

/** The nodes whose text is rendered by Runs, where a sentence can be marked; others stay highlighted whole. */
const MARKABLE: ReadonlySet<DocumentNode['type']> = new Set<DocumentNode['type']>(['heading', 'paragraph', 'list_item', 'cell', 'row']);

/** The range to mark in `node`'s text, when it is the highlighted node and a sentence of it is cited. */
function useMark(node: DocumentNode): CitedMark {
  const highlighted = useContext(Highlight) === node.id;
  const mark = useContext(Mark);
  return highlighted && MARKABLE.has(node.type) ? mark : null;
}

/** The DOM id of a node's element in the readable document (overlay boxes use `box-<id>`). */
export const nodeElementId = (nodeId: string) => `node-${nodeId}`;

/** id, data attributes, highlight and focusability of a node's element. */
function useNodeProps(node: DocumentNode): HTMLAttributes<HTMLElement> & Record<`data-${string}`, string> {
  const highlighted = useContext(Highlight) === node.id;
  const marked = useMark(node) !== null;
  return {
    id: nodeElementId(node.id),
    className: classes.node,
    'data-node-id': node.id,
    'data-type': node.type,
    'data-highlighted': String(highlighted),
    // The cited sentence carries the colour; the node keeps only its outline.
    ...(marked ? { 'data-marked': 'true' } : {}),
    // The highlighted node takes the focus (screen readers read it); tabIndex -1 lets it.
    ...(highlighted ? { tabIndex: -1, 'aria-current': 'location' as const } : {}),
  };
}

/** Whether line numbers are shown: not for HTML, whose lines are those of its source, not of what is read. */
const ShowLines = createContext(true);

function LineNo({ node }: { node: DocumentNode }) {
  const show = useContext(ShowLines);
  const r = show ? lineRange(node) : null;
  if (!r) return null;
  const text = r.end > r.start ? `${r.start}–${r.end}` : String(r.start);
  return (
    <span className={classes.lineNo} aria-label={r.end > r.start ? `Lines ${text}` : `Line ${text}`}>
      {text}
    </span>
  );
}

/**
 * A node tree as a readable document: headings, paragraphs, lists, tables as HTML tables,
 * formulas with KaTeX, code, figures; line numbers in a gutter where nodes carry lines.
 */
export function DocumentTree({
  root,
  highlightId,
  mark = null,
  label,
  lineNumbers = true,
}: {
  root: DocumentNode;
  highlightId: string | null;
  mark?: CitedMark;
  label: string;
  lineNumbers?: boolean;
}) {
  const hasLines = useMemo(() => lineNumbers && carriesLines(root), [root, lineNumbers]);
  return (
    <ShowLines.Provider value={lineNumbers}>
      <HighlightProvider id={highlightId} mark={mark}>
        <Typography>
          <article className={`${classes.doc} ${hasLines ? classes.withLines : ''}`} aria-label={label} data-document-tree>
            <NodeView node={root} />
          </article>
        </Typography>
      </HighlightProvider>
    </ShowLines.Provider>
  );
}

function carriesLines(n: DocumentNode): boolean {
  const stack = [n];
  while (stack.length) {
    const m = stack.pop() as DocumentNode;
    if (m.positions.some((p) => p.type === 'LINE')) return true;
    stack.push(...m.children);
  }
  return false;
}

const Children = ({ node }: { node: DocumentNode }) => (
  <>
    {node.children.map((c) => (
      <NodeView key={c.id} node={c} />
    ))}
  </>
);

function NodeView({ node }: { node: DocumentNode }): ReactNode {
  const props = useNodeProps(node);
  switch (node.type) {
    case 'document':
      return <Children node={node} />;
    case 'section':
      return (
        <section {...props}>
          <Children node={node} />
        </section>
      );
    case 'page': {
      const page = pageOf(node);
      return (
        <section {...props} aria-label={page ? `Page ${page}` : 'Page'}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} className={classes.pageMark}>
            {page ? `Page ${page}` : 'Page'}
          </Text>
          <Children node={node} />
        </section>
      );
    }
    case 'heading': {
      // The view's own title is the h1: document headings start at h2.
      const order = Math.min(6, Math.max(2, (node.level ?? 1) + 1)) as 2 | 3 | 4 | 5 | 6;
      return (
        <Title order={order} {...props}>
          <LineNo node={node} />
          <Runs node={node} />
          <Children node={node} />
        </Title>
      );
    }
    case 'list': {
      const Tag = node.attributes?.ordered === true ? 'ol' : 'ul';
      return (
        <Tag {...props}>
          <Children node={node} />
        </Tag>
      );
    }
    case 'list_item':
      return (
        <li {...props}>
          <LineNo node={node} />
          <Runs node={node} />
          <Children node={node} />
        </li>
      );
    case 'table':
      return <TableView table={node} />;
    case 'formula':
      return <FormulaView node={node} />;
    case 'code':
      return (
        <pre {...props}>
          <LineNo node={node} />
          <code className={classes.code} lang={typeof node.attributes?.language === 'string' ? node.attributes.language : undefined}>
            {node.text}
          </code>
        </pre>
      );
    case 'figure':
      return (
        <figure {...props}>
          <Children node={node} />
          {node.text && <figcaption>{node.text}</figcaption>}
        </figure>
      );
    case 'row':
    case 'cell':
    case 'paragraph':
      return (
        <div {...props}>
          <p className={classes.para}>
            <LineNo node={node} />
            <Runs node={node} />
          </p>
          <Children node={node} />
        </div>
      );
  }
}

/**
 * A node's text, with the LaTeX formulas formula_augmentation found in it rendered by KaTeX, and
 * the cited sentence, when the node is cited, in a <mark>.
 */
function Runs({ node }: { node: DocumentNode }) {
  const mark = useMark(node);
  const runs = useMemo(() => markRuns(textRuns(node), mark), [node, mark]);
  const pieces = runs.map((r, i) =>
    'latex' in r ? <Tex key={i} latex={r.latex} display={false} source={node.text.slice(r.start, r.end)} /> : <span key={i}>{r.text}</span>,
  );
  if (!mark) return <>{pieces}</>;
  // The marked pieces are consecutive: one <mark> around them.
  const first = runs.findIndex((r) => r.marked);
  const last = runs.length - 1 - [...runs].reverse().findIndex((r) => r.marked);
  if (first < 0) return <>{pieces}</>;
  return (
    <>
      {pieces.slice(0, first)}
      <mark className={classes.cited} data-cited-sentence="">
        {pieces.slice(first, last + 1)}
      </mark>
      {pieces.slice(last + 1)}
    </>
  );
}

/** LaTeX rendered by KaTeX (HTML and MathML, so screen readers read the formula); an error shows in red, never throws. */
export function Tex({ latex, display, source }: { latex: string; display: boolean; source?: string }) {
  const html = useMemo(
    () => katex.renderToString(latex, { throwOnError: false, displayMode: display, output: 'htmlAndMathml' }),
    [latex, display],
  );
  const Tag = display ? 'div' : 'span';
  return <Tag className={display ? classes.formula : undefined} title={source} data-katex dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A formula node: its LaTeX with KaTeX, or its plain text when only that is known. */
export function FormulaView({ node }: { node: DocumentNode }) {
  const props = useNodeProps(node);
  const latex = formulaLatex(node);
  return (
    <div {...props} role="group" aria-label={typeName(node)}>
      <LineNo node={node} />
      {latex ? <Tex latex={latex} display source={node.text} /> : <Code block>{node.text}</Code>}
    </div>
  );
}

/** A table node as an HTML table: rows and cells from the tree, header cells as th, spans kept. */
export function TableView({ table, caption }: { table: DocumentNode; caption?: string }) {
  const props = useNodeProps(table);
  const rows = useMemo(() => tableRows(table), [table]);
  const columns = Math.max(0, ...rows.map((r) => r.reduce((n, c) => n + c.colSpan, 0)));
  const label = caption ?? `Table, ${rows.length} rows, ${columns} columns`;
  return (
    <div {...props} className={`${classes.node} ${classes.tableWrap}`} role="region" aria-label={label} tabIndex={props.tabIndex ?? 0}>
      <Table withTableBorder withColumnBorders striped={false} fz="sm" data-rows={rows.length} data-columns={columns}>
        {caption && <caption>{caption}</caption>}
        <Table.Tbody>
          {rows.map((row, r) => (
            <RowView key={table.children[r]?.id ?? r} row={table.children[r]} cells={row} />
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

function RowView({ row, cells }: { row: DocumentNode; cells: ReturnType<typeof tableRows>[number] }) {
  const props = useNodeProps(row);
  return (
    <Table.Tr {...props}>
      {cells.map((c, i) => (
        <CellView key={c.node.id} cell={c} first={i === 0} row={row} />
      ))}
    </Table.Tr>
  );
}

function CellView({ cell, first, row }: { cell: ReturnType<typeof tableRows>[number][number]; first: boolean; row: DocumentNode }) {
  const props = useNodeProps(cell.node);
  const Cell = cell.header ? Table.Th : Table.Td;
  return (
    <Cell
      {...props}
      rowSpan={cell.rowSpan > 1 ? cell.rowSpan : undefined}
      colSpan={cell.colSpan > 1 ? cell.colSpan : undefined}
      {...(cell.header ? { scope: 'col' } : {})}
    >
      {first && row.type === 'row' && <LineNo node={row.positions.length ? row : cell.node} />}
      {cell.node.text && <Runs node={cell.node} />}
      <Children node={cell.node} />
    </Cell>
  );
}

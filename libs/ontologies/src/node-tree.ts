import { DEFAULT_OPTIONS, type EmbeddedMetadata, type HeadingInput, type OntologyInput } from './types';

/**
 * The shape of any document tree: the parsing library's nodes fit it without this library
 * depending on that one. `positions` entries with a `page_number` tell the page.
 */
export interface TreeNode {
  type: string;
  text?: string | null;
  level?: number | null;
  children?: readonly TreeNode[] | null;
  positions?: ReadonlyArray<{ page_number?: number } | Record<string, unknown>> | null;
  /** `name`: the element or property a node stands for (XML, JSON). */
  attributes?: { name?: unknown } | Record<string, unknown> | null;
}

export interface BuildInputOptions {
  fileName: string;
  mediaType: string;
  embeddedMetadata?: EmbeddedMetadata;
  /** Stop collecting text past this many characters (the engine reads no further anyway). */
  maxChars?: number;
}

const BLOCK_SEPARATOR = '\n\n';

function pageOf(node: TreeNode): number | undefined {
  for (const p of node.positions ?? []) {
    const page = (p as { page_number?: unknown }).page_number;
    if (typeof page === 'number' && Number.isFinite(page)) return page;
  }
  return undefined;
}

function ownText(node: TreeNode): string {
  const text = (node.text ?? '').trim();
  // XML elements and JSON properties read "surname: Wolf"; the name is markup, not content.
  const name = node.attributes?.name;
  return typeof name === 'string' && text.startsWith(`${name}: `) ? text.slice(name.length + 2).trim() : text;
}

/** All text under a node, for containers rendered as one block (table rows). */
function flatText(node: TreeNode): string {
  const own = ownText(node);
  const children = (node.children ?? []).map(flatText).filter(Boolean);
  return [own, ...children].filter(Boolean).join(' ');
}

/**
 * Turns a document tree into the engine's input: blocks (headings, paragraphs, list items, table
 * rows with cells joined by " | ") in reading order separated by blank lines, the headings with
 * their levels and pages, and the first page's text when the tree has pages.
 */
export function buildOntologyInput(root: TreeNode, options: BuildInputOptions): OntologyInput {
  const maxChars = options.maxChars ?? DEFAULT_OPTIONS.maxTextChars;
  const blocks: Array<{ text: string; page?: number }> = [];
  const headings: HeadingInput[] = [];
  let length = 0;

  const emit = (text: string, page: number | undefined) => {
    if (!text || length >= maxChars) return;
    blocks.push({ text, page });
    length += text.length + BLOCK_SEPARATOR.length;
  };

  const visit = (node: TreeNode, inheritedPage: number | undefined) => {
    if (length >= maxChars) return;
    const page = pageOf(node) ?? inheritedPage;
    const children = node.children ?? [];
    switch (node.type) {
      case 'heading': {
        const text = ownText(node) || flatText(node);
        if (text) headings.push({ level: node.level ?? 1, text, ...(page !== undefined ? { page } : {}) });
        emit(text, page);
        return;
      }
      case 'row':
        emit(children.map(flatText).join(' | '), page);
        return;
      default:
        if (!children.length) {
          emit(ownText(node), page);
          return;
        }
        // Leaves carry the text; a container's own text (if any) comes before its children.
        emit(ownText(node), page);
        for (const child of children) visit(child, page);
    }
  };
  visit(root, undefined);

  const firstPage = blocks.reduce<number | undefined>(
    (min, b) => (b.page !== undefined && (min === undefined || b.page < min) ? b.page : min),
    undefined,
  );
  const firstPageText =
    firstPage === undefined
      ? undefined
      : blocks
          .filter((b) => b.page === firstPage)
          .map((b) => b.text)
          .join(BLOCK_SEPARATOR);

  return {
    fileName: options.fileName,
    mediaType: options.mediaType,
    text: blocks.map((b) => b.text).join(BLOCK_SEPARATOR),
    headings,
    ...(firstPageText !== undefined ? { firstPageText } : {}),
    ...(options.embeddedMetadata ? { embeddedMetadata: options.embeddedMetadata } : {}),
  };
}

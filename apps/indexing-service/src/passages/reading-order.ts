import { textWindows, windowId } from './passage-builder';

/**
 * Reading order of a file's passages, walked on the node tree: the passages table has no order of
 * its own, and the tree's (siblings by `ordinal`, a parent before its children) is the document's.
 * The walk reads a bounded number of siblings at a time, from the node asked about outwards, so
 * reading around a node costs about the window asked for, not the document.
 */

/** A node as the walk sees it. */
export interface OrderedNode {
  id: string;
  parentId: string | null;
  ordinal: number;
  type: string;
  /** It has a passage of the current tree (its first window, when its text is cut in windows). */
  passage: boolean;
  /** Its text may be longer than a passage, so that it may be cut in windows (read its text to know). */
  long: boolean;
  /**
   * Passages may lie below it: it has children, and for a row, children other than its cells or
   * cells with children of their own (a row's passage covers its cells' text).
   */
  descend: boolean;
}

export type Direction = 'forward' | 'backward';

/** The reads of one file's current tree that the walk takes. */
export interface TreeReads {
  /** The node and its ancestors up to the root, nearest first; empty when the tree has no such node. */
  ancestry(nodeId: string): Promise<OrderedNode[]>;
  /** The node a passage that is not a node's own (a window of a long text) was cut from; null when there is no such passage. */
  windowSource(passageId: string): Promise<string | null>;
  /** At most `limit` children of a node after (forward) or before (backward) `ordinal` (null: from the first or the last), in that direction. */
  children(parentId: string, direction: Direction, ordinal: number | null, limit: number): Promise<OrderedNode[]>;
  /** A node's text. */
  text(nodeId: string): Promise<string>;
}

/** Children read at a time: few at first (a window is a few passages), more as a walk goes on. */
const FIRST_CHUNK = 8;
const MAX_CHUNK = 64;

async function* childrenInOrder(
  reads: TreeReads,
  parentId: string,
  direction: Direction,
  from: number | null,
): AsyncGenerator<OrderedNode> {
  let bound = from;
  for (let size = FIRST_CHUNK; ; size = Math.min(2 * size, MAX_CHUNK)) {
    const chunk = await reads.children(parentId, direction, bound, size);
    yield* chunk;
    if (chunk.length < size) return;
    bound = chunk[chunk.length - 1].ordinal;
  }
}

/** The subtree below a node's children from `from` on, in document order (a node, then its subtree). */
async function* preorder(reads: TreeReads, parentId: string, from: number | null): AsyncGenerator<OrderedNode> {
  for await (const child of childrenInOrder(reads, parentId, 'forward', from)) {
    yield child;
    if (child.descend) yield* preorder(reads, child.id, null);
  }
}

/** The same, backwards (a node's subtree backwards, then the node). */
async function* reversePreorder(reads: TreeReads, parentId: string, from: number | null): AsyncGenerator<OrderedNode> {
  for await (const child of childrenInOrder(reads, parentId, 'backward', from)) {
    if (child.descend) yield* reversePreorder(reads, child.id, null);
    yield child;
  }
}

/** The nodes after chain[0] in document order: its subtree, then what follows each of its ancestors. */
export async function* nodesAfter(reads: TreeReads, chain: OrderedNode[]): AsyncGenerator<OrderedNode> {
  if (chain[0].descend) yield* preorder(reads, chain[0].id, null);
  for (let i = 0; i + 1 < chain.length; i++) yield* preorder(reads, chain[i + 1].id, chain[i].ordinal);
}

/** The nodes before chain[0] in document order, nearest first: each ancestor's earlier children backwards, then the ancestor. */
export async function* nodesBefore(reads: TreeReads, chain: OrderedNode[]): AsyncGenerator<OrderedNode> {
  for (let i = 0; i + 1 < chain.length; i++) {
    yield* reversePreorder(reads, chain[i + 1].id, chain[i].ordinal);
    yield chain[i + 1];
  }
}

/** A node's passage ids in document order: its own, then its windows' (the ids passage-builder gave them). */
export async function passageIdsOf(reads: TreeReads, node: OrderedNode): Promise<string[]> {
  if (!node.passage) return [];
  if (!node.long) return [node.id];
  const windows = textWindows(await reads.text(node.id)).length;
  return [node.id, ...Array.from({ length: windows - 1 }, (_, k) => windowId(node.id, k + 1))];
}

/** The passage ids of some nodes in the walk's direction. */
async function* passagesOf(reads: TreeReads, nodes: AsyncIterable<OrderedNode>, direction: Direction): AsyncGenerator<string> {
  for await (const node of nodes) {
    const ids = await passageIdsOf(reads, node);
    yield* direction === 'forward' ? ids : ids.reverse();
  }
}

/** Up to `count` ids of a stream, reading no further than needed. */
async function take(ids: AsyncIterator<string>, count: number): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const next = await ids.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

/** The passage ids of a window of the document in reading order, and where in it the asked node's passage is. */
export interface ReadingWindow {
  ids: string[];
  index: number;
}

/**
 * The passage a node is read through and up to `before`/`after` passages around it, in document
 * order; null when the id names neither a node of the tree nor a passage of it (a window).
 *
 * - A node with a passage is read through it; a window id (a long text's passage after its first)
 *   through that window, its node's other windows being its neighbours.
 * - A node inside a passage (a cell of a row, or anything below a row's cells) through the passage
 *   of its nearest ancestor that has one.
 * - Any other node (a section, a table, a page, an empty paragraph) through the first passage at
 *   it or after it, the last before it when none follows; `index` is -1 when the file has no
 *   passage at all (not indexed yet).
 */
export async function readingWindow(reads: TreeReads, id: string, before: number, after: number): Promise<ReadingWindow | null> {
  let chain = await reads.ancestry(id);
  let asked: string | null = null;
  if (!chain.length) {
    const source = await reads.windowSource(id);
    if (source) chain = await reads.ancestry(source);
    if (!chain.length) return null;
    asked = id;
  }

  const holder = chain.findIndex((n) => n.passage);
  if (holder >= 0) {
    const at = chain.slice(holder);
    const own = await passageIdsOf(reads, at[0]);
    const k = asked ? Math.max(0, own.indexOf(asked)) : 0;
    const earlier = own.slice(0, k).reverse();
    const later = own.slice(k + 1);
    const prev = [...earlier, ...(await take(passagesOf(reads, nodesBefore(reads, at), 'backward'), before - earlier.length))].slice(
      0,
      before,
    );
    const next = [...later, ...(await take(passagesOf(reads, nodesAfter(reads, at), 'forward'), after - later.length))].slice(0, after);
    return { ids: [...prev.reverse(), own[k], ...next], index: prev.length };
  }

  // Not inside a passage: the first passage at it or after it is the one read.
  const following = passagesOf(reads, nodesAfter(reads, chain), 'forward');
  const first = await following.next();
  if (!first.done) {
    const prev = await take(passagesOf(reads, nodesBefore(reads, chain), 'backward'), before);
    const next = await take(following, after);
    return { ids: [...prev.reverse(), first.value, ...next], index: prev.length };
  }
  const preceding = passagesOf(reads, nodesBefore(reads, chain), 'backward');
  const last = await preceding.next();
  if (last.done) return { ids: [], index: -1 };
  const prev = await take(preceding, before);
  return { ids: [...prev.reverse(), last.value], index: prev.length };
}

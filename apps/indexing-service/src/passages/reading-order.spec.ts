import { MAX_PASSAGE_CHARS, textWindows, windowId } from './passage-builder';
import { readingWindow, type Direction, type OrderedNode, type TreeReads } from './reading-order';

interface TestNode {
  id: string;
  parentId: string | null;
  type: string;
  text: string;
  passage: boolean;
}

/** A tree in memory, answering the walk's reads as ReadingOrderRepository does; counts the children reads. */
function memoryTree() {
  const nodes: TestNode[] = [];
  const windows = new Map<string, string>();
  const reads = { children: 0 };
  const childrenOf = (id: string) => nodes.filter((n) => n.parentId === id);
  const facts = (n: TestNode): OrderedNode => ({
    id: n.id,
    parentId: n.parentId,
    ordinal: n.parentId ? childrenOf(n.parentId).indexOf(n) : 0,
    type: n.type,
    passage: n.passage,
    long: n.type !== 'row' && n.text.length > MAX_PASSAGE_CHARS,
    descend: childrenOf(n.id).some((k) => n.type !== 'row' || k.type !== 'cell' || childrenOf(k.id).length > 0),
  });
  const byId = (id: string) => nodes.find((n) => n.id === id);
  const tree: TreeReads = {
    ancestry: (id) => {
      const out: OrderedNode[] = [];
      for (let n = byId(id); n; n = n.parentId ? byId(n.parentId) : undefined) out.push(facts(n));
      return Promise.resolve(out);
    },
    windowSource: (id) => Promise.resolve(windows.get(id) ?? null),
    children: (parentId: string, direction: Direction, ordinal: number | null, limit: number) => {
      reads.children++;
      const all = childrenOf(parentId).map(facts);
      const picked =
        direction === 'forward'
          ? all.filter((n) => ordinal === null || n.ordinal > ordinal)
          : all.filter((n) => ordinal === null || n.ordinal < ordinal).reverse();
      return Promise.resolve(picked.slice(0, limit));
    },
    text: (id) => Promise.resolve(byId(id)?.text ?? ''),
  };
  /** Adds a node; leaves with text and rows have a passage (as passage-builder decides), cells of rows do not. */
  const add = (id: string, type: string, parentId: string | null, text = ''): string => {
    const inRow = type === 'cell' && parentId !== null && byId(parentId)?.type === 'row';
    const passage = type === 'row' || (['heading', 'paragraph', 'cell'].includes(type) && text.trim().length > 0 && !inRow);
    nodes.push({ id, parentId, type, text, passage });
    if (passage && type !== 'row') textWindows(text).forEach((_, k) => k > 0 && windows.set(windowId(id, k), id));
    return id;
  };
  return { tree, add, reads };
}

/** document > [h1, p1..p5 under section s1], section s2 > [h2, table t > rows r0..r2 > cells], p6 */
function sample() {
  const m = memoryTree();
  m.add('doc', 'document', null);
  m.add('s1', 'section', 'doc');
  m.add('h1', 'heading', 's1', 'Terms');
  for (let i = 1; i <= 5; i++) m.add(`p${i}`, 'paragraph', 's1', `Paragraph ${i}.`);
  m.add('s2', 'section', 'doc');
  m.add('h2', 'heading', 's2', 'Prices');
  m.add('empty', 'paragraph', 's2', '  ');
  m.add('t', 'table', 's2');
  for (let r = 0; r < 3; r++) {
    m.add(`r${r}`, 'row', 't');
    m.add(`r${r}c0`, 'cell', `r${r}`, `item ${r}`);
    m.add(`r${r}c1`, 'cell', `r${r}`, `${r} EUR`);
  }
  m.add('p6', 'paragraph', 'doc', 'The end.');
  return m;
}

const ORDER = ['h1', 'p1', 'p2', 'p3', 'p4', 'p5', 'h2', 'r0', 'r1', 'r2', 'p6'];

describe('readingWindow', () => {
  it('reads a passage with its neighbours in document order', async () => {
    const { tree } = sample();
    expect(await readingWindow(tree, 'p3', 2, 2)).toEqual({ ids: ['p1', 'p2', 'p3', 'p4', 'p5'], index: 2 });
    expect(await readingWindow(tree, 'p5', 1, 3)).toEqual({ ids: ['p4', 'p5', 'h2', 'r0', 'r1'], index: 1 });
    expect(await readingWindow(tree, 'r0', 2, 0)).toEqual({ ids: ['p5', 'h2', 'r0'], index: 2 });
    expect(await readingWindow(tree, 'h1', 0, 0)).toEqual({ ids: ['h1'], index: 0 });
  });

  it('clips at the start and the end of the document', async () => {
    const { tree } = sample();
    expect(await readingWindow(tree, 'p1', 5, 1)).toEqual({ ids: ['h1', 'p1', 'p2'], index: 1 });
    expect(await readingWindow(tree, 'p6', 2, 5)).toEqual({ ids: ['r1', 'r2', 'p6'], index: 2 });
    expect(await readingWindow(tree, 'h1', 20, 20)).toEqual({ ids: ORDER, index: 0 });
  });

  it('reads a node inside a passage through it, and a container through its first passage', async () => {
    const { tree } = sample();
    expect(await readingWindow(tree, 'r1c1', 1, 1)).toEqual({ ids: ['r0', 'r1', 'r2'], index: 1 });
    expect(await readingWindow(tree, 's2', 1, 1)).toEqual({ ids: ['p5', 'h2', 'r0'], index: 1 });
    expect(await readingWindow(tree, 't', 1, 1)).toEqual({ ids: ['h2', 'r0', 'r1'], index: 1 });
    expect(await readingWindow(tree, 'empty', 1, 1)).toEqual({ ids: ['h2', 'r0', 'r1'], index: 1 });
    expect(await readingWindow(tree, 'doc', 3, 1)).toEqual({ ids: ['h1', 'p1'], index: 0 });
  });

  it('reads the last passage before a node that has none after it', async () => {
    const m = sample();
    m.add('trailer', 'section', 'doc');
    expect(await readingWindow(m.tree, 'trailer', 2, 2)).toEqual({ ids: ['r1', 'r2', 'p6'], index: 2 });
  });

  it('answers null for an unknown id, and index -1 for a tree without passages', async () => {
    const m = memoryTree();
    m.add('doc', 'document', null);
    m.add('s', 'section', 'doc');
    expect(await readingWindow(m.tree, 'nope', 2, 2)).toBeNull();
    expect(await readingWindow(m.tree, 's', 2, 2)).toEqual({ ids: [], index: -1 });
  });

  it('reads the windows of a long text in order, from its first window or any other', async () => {
    const m = memoryTree();
    m.add('doc', 'document', null);
    m.add('a', 'paragraph', 'doc', 'Before.');
    const long = Array.from({ length: 3 * MAX_PASSAGE_CHARS }, (_, i) => (i % 50 === 49 ? '. ' : 'x')).join('');
    m.add('long', 'paragraph', 'doc', long);
    m.add('b', 'paragraph', 'doc', 'After.');
    const ids = [
      'long',
      ...textWindows(long)
        .slice(1)
        .map((_, k) => windowId('long', k + 1)),
    ];
    expect(ids.length).toBeGreaterThan(2);
    expect(await readingWindow(m.tree, 'a', 0, 20)).toEqual({ ids: ['a', ...ids, 'b'], index: 0 });
    expect(await readingWindow(m.tree, 'long', 1, 1)).toEqual({ ids: ['a', 'long', ids[1]], index: 1 });
    expect(await readingWindow(m.tree, ids[1], 1, 1)).toEqual({ ids: ['long', ids[1], ids[2]], index: 1 });
    expect(await readingWindow(m.tree, ids[1], 20, 20)).toEqual({ ids: ['a', ...ids, 'b'], index: 2 });
    expect(await readingWindow(m.tree, 'b', 2, 0)).toEqual({ ids: [ids[ids.length - 2], ids[ids.length - 1], 'b'], index: 2 });
  });

  it('reads passages nested in a cell of a row after the row', async () => {
    const m = memoryTree();
    m.add('doc', 'document', null);
    m.add('t', 'table', 'doc');
    m.add('r', 'row', 't');
    m.add('c', 'cell', 'r', 'outer');
    m.add('inner', 'table', 'c');
    m.add('ir', 'row', 'inner');
    m.add('ic', 'cell', 'ir', 'nested');
    m.add('next', 'row', 't');
    m.add('nc', 'cell', 'next', 'x');
    expect(await readingWindow(m.tree, 'r', 0, 2)).toEqual({ ids: ['r', 'ir', 'next'], index: 0 });
    expect(await readingWindow(m.tree, 'next', 2, 0)).toEqual({ ids: ['r', 'ir', 'next'], index: 2 });
    expect(await readingWindow(m.tree, 'ic', 1, 1)).toEqual({ ids: ['r', 'ir', 'next'], index: 1 });
  });

  it('reads about the window asked for, not the document', async () => {
    const m = memoryTree();
    m.add('doc', 'document', null);
    for (let p = 0; p < 100; p++) {
      m.add(`page${p}`, 'page', 'doc');
      for (let i = 0; i < 100; i++) m.add(`p${p}.${i}`, 'paragraph', `page${p}`, `Paragraph ${i} of page ${p}.`);
    }
    expect(await readingWindow(m.tree, 'p50.1', 3, 2)).toEqual({ ids: ['p49.98', 'p49.99', 'p50.0', 'p50.1', 'p50.2', 'p50.3'], index: 3 });
    expect(m.reads.children).toBeLessThanOrEqual(4);
    // Longer windows read more siblings at a time.
    const wide = await readingWindow(m.tree, 'p50.50', 20, 20);
    expect(wide).toEqual({ ids: Array.from({ length: 41 }, (_, i) => `p50.${30 + i}`), index: 20 });
  });
});

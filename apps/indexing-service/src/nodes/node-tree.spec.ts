import type { NodeType } from '@docintel/contracts';
import { buildTree, type NodeRow } from './node-tree';

describe('buildTree', () => {
  const r = (id: string, parent: string | null, ordinal: number, type: NodeType, text = '', extra: Partial<NodeRow> = {}): NodeRow => ({
    id,
    parent_id: parent,
    ordinal,
    type,
    text,
    level: null,
    positions: [],
    metadata: {},
    ...extra,
  });

  it('orders children by ordinal whatever the row order, and keeps level, positions and attributes', () => {
    const pos = { type: 'BBOX' as const, page_number: 1, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } };
    const tree = buildTree(
      [
        r('p2', 'd', 2, 'paragraph', 'second', { positions: [pos] }),
        r('h', 'd', 0, 'heading', 'Title', { level: 1 }),
        r('d', null, 0, 'document'),
        r('p1', 'd', 1, 'paragraph', 'first', { metadata: { confidence: 93 } }),
      ],
      'file',
    );
    expect(tree).toEqual({
      id: 'd',
      type: 'document',
      text: '',
      positions: [],
      children: [
        { id: 'h', type: 'heading', text: 'Title', level: 1, positions: [], children: [] },
        { id: 'p1', type: 'paragraph', text: 'first', positions: [], attributes: { confidence: 93 }, children: [] },
        { id: 'p2', type: 'paragraph', text: 'second', positions: [pos], children: [] },
      ],
    });
  });

  it('puts several top-level nodes under one document node named by the file', () => {
    const tree = buildTree([r('b', null, 1, 'paragraph', 'b'), r('a', null, 0, 'paragraph', 'a')], 'file-id');
    expect(tree?.id).toBe('file-id');
    expect(tree?.children.map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('has no tree without rows', () => {
    expect(buildTree([], 'f')).toBeNull();
  });
});

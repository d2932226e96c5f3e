import { inTreeOrder, type TreeLink } from './tree-order';

const node = (id: string, parent: string | null, ordinal: number): TreeLink => ({ id, parent_id: parent, ordinal });

describe('inTreeOrder', () => {
  it('puts a parent before its children and siblings by ordinal, whatever order the rows came in', () => {
    const rows = [
      node('b2', 'b', 1),
      node('a', 'root', 0),
      node('b', 'root', 1),
      node('b1', 'b', 0),
      node('root', null, 0),
      node('a1', 'a', 0),
      node('c', 'root', 2),
    ];
    expect(inTreeOrder(rows).map(({ row, depth }) => `${row.id}@${depth}`)).toEqual([
      'root@0',
      'a@1',
      'a1@2',
      'b@1',
      'b1@2',
      'b2@2',
      'c@1',
    ]);
  });

  it('leaves out rows no root reaches and rows deeper than the limit', () => {
    const rows = [node('root', null, 0), node('child', 'root', 0), node('grandchild', 'child', 0), node('orphan', 'missing', 0)];
    expect(inTreeOrder(rows).map(({ row }) => row.id)).toEqual(['root', 'child', 'grandchild']);
    expect(inTreeOrder(rows, 1).map(({ row }) => row.id)).toEqual(['root', 'child']);
  });

  it('walks a chain deeper than the call stack would allow', () => {
    const rows = [node('n0', null, 0)];
    for (let i = 1; i < 50_000; i++) rows.push(node(`n${i}`, `n${i - 1}`, 0));
    const ordered = inTreeOrder(rows.reverse());
    expect(ordered).toHaveLength(50_000);
    expect(ordered[49_999]).toEqual({ row: rows[0], depth: 49_999 });
  });
});

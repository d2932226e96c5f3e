import { filesToAsk } from './files-to-ask';

describe('filesToAsk', () => {
  const p = (id: string, fileId: string) => ({ id, fileId, fileName: `${fileId}.txt`, text: `text ${id}` });

  it('keeps each file once, in the order of its best passage, with that passage', () => {
    expect(filesToAsk([p('n1', 'a'), p('n2', 'b'), p('n3', 'a'), p('n4', 'c')])).toEqual([
      { fileId: 'a', fileName: 'a.txt', passage: { id: 'n1', text: 'text n1' } },
      { fileId: 'b', fileName: 'b.txt', passage: { id: 'n2', text: 'text n2' } },
      { fileId: 'c', fileName: 'c.txt', passage: { id: 'n4', text: 'text n4' } },
    ]);
  });

  it('stops at the number of files asked', () => {
    expect(filesToAsk([p('1', 'a'), p('2', 'b'), p('3', 'c')], 2).map((f) => f.fileId)).toEqual(['a', 'b']);
    expect(filesToAsk([])).toEqual([]);
  });
});

import { SUPPORTED_EXTENSIONS as ACCEPTED_BY_THE_API } from '@docintel/contracts';
import { detectFormat, isSupportedFileName } from './detect';
import { ParseError } from './errors';
import { SUPPORTED_EXTENSIONS } from './model';
import { makeDocx, makePdf, para } from './testing/fixtures';

describe('detectFormat', () => {
  it('trusts the content over the extension for binary formats', async () => {
    const pdf = makePdf([[{ text: 'hello', x: 72, y: 700 }]]);
    await expect(detectFormat(pdf, 'report.txt')).resolves.toMatchObject({ family: 'pdf', extension: 'pdf', mediaType: 'application/pdf' });
    await expect(detectFormat(makeDocx(para('x')), 'notes.bin')).resolves.toMatchObject({ family: 'docx', extension: 'docx' });
  });

  it('uses the extension for text formats and keeps the spelling of equivalent ones', async () => {
    await expect(detectFormat(Buffer.from('a,b\n1,2\n'), 'data.csv')).resolves.toMatchObject({ family: 'csv', mediaType: 'text/csv' });
    await expect(detectFormat(Buffer.from('{"a":1}'), 'x.json')).resolves.toMatchObject({ family: 'json' });
    await expect(detectFormat(Buffer.from('<html><body>hi</body></html>'), 'page.htm')).resolves.toMatchObject({
      family: 'html',
      extension: 'htm',
    });
    await expect(detectFormat(Buffer.from('<!DOCTYPE html><html></html>'), 'saved.txt')).resolves.toMatchObject({ family: 'html' });
  });

  it('takes a declared media type when the name has no supported extension', async () => {
    await expect(detectFormat(Buffer.from('a;b\n1;2\n'), 'export', 'text/csv; charset=utf-8')).resolves.toMatchObject({ family: 'csv' });
    await expect(detectFormat(Buffer.from('plain words'), 'README')).resolves.toMatchObject({ family: 'text' });
  });

  it('recognises UTF-16 text that binary sniffers mistake for media', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a>b</a>', 'utf16le')]);
    await expect(detectFormat(utf16, 'f.xml')).resolves.toMatchObject({ family: 'xml' });
  });

  it('rejects empty, unsupported and mislabelled files with a clear ParseError', async () => {
    await expect(detectFormat(Buffer.alloc(0), 'a.pdf')).rejects.toMatchObject({ code: 'EMPTY', message: 'The file is empty.' });
    const gif = Buffer.from('474946383961010001000000002c00000000010001000002', 'hex');
    await expect(detectFormat(gif, 'a.png')).rejects.toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
    const stub = Buffer.from('Attachment not found!');
    const err = await detectFormat(stub, 'book.xls').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).message).toMatch(/not a valid \.xls file/);
  });

  it('knows the 18 supported extensions', () => {
    for (const name of ['a.pdf', 'b.TIFF', 'c.tif', 'd.jpeg', 'e.htm', 'f.ods']) expect(isSupportedFileName(name)).toBe(true);
    for (const name of ['a.pptx', 'b', 'c.gif']) expect(isSupportedFileName(name)).toBe(false);
  });
});

// The parser threads keep their own copy of the list so that they load nothing of libs/contracts.
it('parses exactly the extensions the API accepts', () => {
  expect([...SUPPORTED_EXTENSIONS].sort()).toEqual([...ACCEPTED_BY_THE_API].sort());
});

import { csvField, exportName, extractionCsv, plainValue, tableCsv, toCsv } from './export';
import type { EntityExtraction, MetaResult } from './values';

describe('exporting results', () => {
  it('quotes CSV fields that need it and keeps a document from writing a spreadsheet formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://evil.example")')).toBe(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csvField('-5 EUR')).toBe("'-5 EUR");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('writes typed values as plain data: numbers unformatted, lists joined', () => {
    expect(plainValue({ doubleValue: 1250.5 })).toBe(1250.5);
    expect(plainValue({ boolValue: false })).toBe(false);
    expect(plainValue({ strListValue: ['Ann', 'Bob'] })).toBe('Ann; Bob');
    expect(plainValue(undefined)).toBeNull();
  });

  it('writes an extraction one row per file and field, and a table under its column labels', () => {
    const results = [
      {
        id: 'r1',
        fileId: 'f1',
        meta: 'total',
        found: true,
        answer: { doubleValue: 1250 },
        confidence: 0.9,
        explanation: 'Read from line 2',
      },
      { id: 'r2', fileId: 'f1', meta: 'due', found: false, confidence: 0.1, explanation: 'No date near "due"' },
    ] as unknown as MetaResult[];
    expect(extractionCsv(results, () => 'invoice.txt')).toBe(
      'file,field,value,found,confidence,explanation\r\n' +
        'invoice.txt,total,1250,true,0.9,Read from line 2\r\n' +
        'invoice.txt,due,,false,0.1,"No date near ""due"""\r\n',
    );
    const table = {
      schema: {
        name: 'Stock',
        columns: [
          { key: 'item', label: 'Item' },
          { key: 'qty', label: 'Quantity' },
        ],
      },
      rows: [
        {
          cells: [
            { columnKey: 'item', value: 'Widget' },
            { columnKey: 'qty', value: 40 },
          ],
        },
        { cells: [{ columnKey: 'item', value: 'Gadget, large' }] },
      ],
    } as unknown as EntityExtraction;
    expect(tableCsv(table)).toBe('Item,Quantity\r\nWidget,40\r\n"Gadget, large",\r\n');
  });

  it('names the file after the job, safely', () => {
    expect(exportName('Q3 invoices / totals', 'abcdef1234', 'csv')).toBe('Q3-invoices-totals.csv');
    expect(exportName('../../etc/passwd', 'abcdef1234', 'json')).toBe('..-..-etc-passwd.json');
    expect(exportName(undefined, 'abcdef1234', 'json')).toBe('job-abcdef12.json');
  });
});

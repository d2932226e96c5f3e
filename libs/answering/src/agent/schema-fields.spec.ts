import { repairOutput } from './output-repair';
import { compileOutputSchema } from './output-schema';
import { OUTPUT_SCHEMA_MAX_FIELDS, expandedFieldCount, expandedSizeProblem, humanise, schemaFields } from './schema-fields';
import { AgentRunFailed } from './types';

describe('schemaFields', () => {
  it('asks a typed question per leaf property, from its description or its name', () => {
    const fields = schemaFields({
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        issuedOn: { type: 'string', format: 'date' },
        total: { type: ['number', 'null'], description: 'The total amount due, in EUR.' },
        lines: { type: 'integer', description: 'How many lines does the invoice have' },
        is_paid: { type: 'boolean' },
        currency: { enum: ['EUR', 'USD'] },
        tags: { type: 'array', items: { type: 'string' } },
        seller: { type: 'object', properties: { name: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    });
    expect(fields.map((f) => [f.path.join('.'), f.question, f.answerType])).toEqual([
      ['invoice_number', 'What is the invoice number?', { dataType: 'STRING', multiValued: false }],
      ['issuedOn', 'When was it issued?', { dataType: 'DATE', multiValued: false }],
      ['total', 'What is the total amount due, in EUR?', { dataType: 'FLOAT', multiValued: false }],
      ['lines', 'How many lines does the invoice have?', { dataType: 'INT', multiValued: false }],
      ['is_paid', 'Is it paid?', { dataType: 'BOOL', multiValued: false }],
      ['currency', 'What is the currency?', { dataType: 'ENUM', enumValues: ['EUR', 'USD'], multiValued: false }],
      ['tags', 'What are the tags?', { dataType: 'STRING', multiValued: true }],
      ['seller.name', 'What is the seller name?', { dataType: 'STRING', multiValued: false }],
    ]);
  });

  it('counts the fields a schema expands to, $refs resolved, as the walk reads them', () => {
    const address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } };
    const schema = {
      type: 'object',
      properties: { seller: { $ref: '#/$defs/address' }, buyer: { $ref: '#/$defs/address' }, total: { type: 'number' } },
      $defs: { address },
    };
    // seller, buyer, total and two fields under each address.
    expect(expandedFieldCount(schema, 1000)).toBe(7);
    expect(schemaFields(schema)).toHaveLength(5);
    expect(expandedSizeProblem(schema)).toBeUndefined();
  });

  it('bounds a recursive $ref by its expansion, not its bytes: a few hundred bytes can name 10^7 fields', () => {
    const node = { type: 'object', properties: Object.fromEntries('abcdefghij'.split('').map((k) => [k, { $ref: '#/$defs/n' }])) };
    const schema = { $ref: '#/$defs/n', $defs: { n: node } };
    expect(JSON.stringify(schema).length).toBeLessThan(350);
    const cap = OUTPUT_SCHEMA_MAX_FIELDS * 10;
    // Counting stops past the cap instead of walking the ten million fields.
    expect(expandedFieldCount(schema, cap)).toBe(cap + 1);
    expect(expandedSizeProblem(schema)).toBe(
      `expands to more than ${cap} fields (properties at any depth, $ref resolved); at most ${OUTPUT_SCHEMA_MAX_FIELDS} are accepted`,
    );
    expect(() => schemaFields(schema)).toThrow(AgentRunFailed);
  });

  it('gives the exact count of a schema over the limit when it is within reach', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1365 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    expect(expandedSizeProblem(wide)).toMatch(/^expands to 1365 fields .*at most 200/);
    expect(schemaFields(wide, 1365)).toHaveLength(1365);
  });

  it('humanises names', () => {
    expect(['invoice_number', 'invoiceNumber', 'invoice-number', 'VAT_id'].map(humanise)).toEqual([
      'invoice number',
      'invoice number',
      'invoice number',
      'vat id',
    ]);
  });
});

describe('repairOutput', () => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      price: { type: 'number' },
      code: { type: 'string' },
      paid: { type: 'boolean' },
      currency: { enum: ['EUR', 'USD'] },
      tags: { type: 'array', items: { type: 'string' } },
      day: { type: 'string', format: 'date' },
      note: { type: ['string', 'null'] },
      pages: { type: 'integer', minimum: 1 },
    },
    required: ['count', 'note'],
    additionalProperties: false,
  };
  const check = compileOutputSchema(schema);

  it('coerces values to the types asked, nulls a required nullable field, drops what still fails where optional', () => {
    const repaired = repairOutput(
      {
        count: '1,200',
        price: '9.5',
        code: 42,
        paid: 'Yes',
        currency: 'eur',
        tags: 'urgent',
        day: '2024-03-12T00:00:00.000Z',
        pages: 0,
        extra: 1,
      },
      schema,
      check,
    );
    expect(repaired).toEqual({
      count: 1200,
      price: 9.5,
      code: '42',
      paid: true,
      currency: 'EUR',
      tags: ['urgent'],
      day: '2024-03-12',
      note: null,
    });
    expect(check(repaired).problems).toEqual([]);
  });

  it('keeps a required field that cannot be repaired, so that the check names it', () => {
    const repaired = repairOutput({ count: 'many', note: 'x' }, schema, check);
    expect(check(repaired).problems).toEqual(['/count must be integer']);
  });
});

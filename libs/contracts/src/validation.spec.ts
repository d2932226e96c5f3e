import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsInt, IsOptional, IsString, Matches, Min, MinLength, ValidateNested, validate } from 'class-validator';
import { DomainError, ErrorCode } from './errors';
import { MAX_JSON_DEPTH, toErrorDetails, unsafeValueProblems, validatePayload } from './validation';

class Address {
  @IsString()
  city: string;

  @Matches(/^\d{5}$/, { message: 'must be five digits' })
  zip: string;
}

class Line {
  @IsDefined({ message: 'is required' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  quantity: number;
}

class Order {
  @IsString()
  @MinLength(3)
  name: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Address)
  address?: Address;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines: Line[];
}

async function failure(plain: unknown, opts?: { forbidUnknown?: boolean }): Promise<DomainError> {
  try {
    await validatePayload(Order, plain, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected validation to fail');
}

describe('validatePayload', () => {
  it('returns an instance of the class with converted values', async () => {
    const order = await validatePayload(Order, { name: 'Widgets', lines: [{ quantity: '2' }], address: { city: 'Lyon', zip: '69001' } });
    expect(order).toBeInstanceOf(Order);
    expect(order.lines[0]).toBeInstanceOf(Line);
    expect(order.lines[0].quantity).toBe(2);
    expect(order.address).toBeInstanceOf(Address);
  });

  it('drops properties the class does not declare', async () => {
    const order = await validatePayload(Order, { name: 'Widgets', lines: [], extra: 'x' });
    expect(order).not.toHaveProperty('extra');
  });

  it('rejects undeclared properties when asked to, naming them', async () => {
    const err = await failure({ name: 'Widgets', lines: [], extra: 'x' }, { forbidUnknown: true });
    expect(err.details).toEqual([{ field: 'extra', problem: 'property extra should not exist' }]);
  });

  it.each([null, undefined, 'text', 42, [{ name: 'x' }]])('rejects %p: the body must be a JSON object', async (plain) => {
    const err = await failure(plain);
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.details).toEqual([{ field: '(body)', problem: 'must be a JSON object' }]);
  });

  it('names nested fields with dotted paths and array indexes', async () => {
    const err = await failure({ name: 'Widgets', address: { city: 7, zip: '1' }, lines: [{ quantity: 1 }, { quantity: 0 }] });
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.message).toBe('The request is invalid');
    expect(err.details).toEqual(
      expect.arrayContaining([
        { field: 'address.city', problem: 'must be a string' },
        { field: 'address.zip', problem: 'must be five digits' },
        { field: 'lines[1].quantity', problem: 'must not be less than 1' },
      ]),
    );
    expect(err.details).toHaveLength(3);
  });

  it('reports every failing rule of a field, without the property name in front', async () => {
    const err = await failure({ name: 5, lines: 'none' });
    expect(err.details).toEqual(
      expect.arrayContaining([
        { field: 'name', problem: 'must be a string' },
        { field: 'name', problem: 'must be longer than or equal to 3 characters' },
        { field: 'lines', problem: 'must be an array' },
      ]),
    );
    for (const d of err.details) expect(d.problem.startsWith(`${d.field} `)).toBe(false);
  });

  it('says once that a required value is missing, not also every rule it would have to pass', async () => {
    const err = await failure({ name: 'abc', lines: [{}] });
    expect(err.details).toEqual([{ field: 'lines[0].quantity', problem: 'is required' }]);
  });

  it('travels as a payload and comes back the same', async () => {
    const err = await failure({ lines: [] });
    const again = DomainError.fromPayload(JSON.parse(JSON.stringify(err.toPayload())));
    expect(again).toBeInstanceOf(DomainError);
    expect(again).toMatchObject({ code: err.code, message: err.message, details: err.details });
  });
});

/** `{"a":{"a":...}}` nested `levels` deep, built without recursion. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('validatePayload: NUL characters and nesting', () => {
  const NUL = 'must not contain the NUL character (U+0000)';

  it('refuses a NUL anywhere, naming the field with its path', async () => {
    expect((await failure({ name: 'Wid\u0000gets', lines: [] })).details).toEqual([{ field: 'name', problem: NUL }]);
    const deep = await failure({ name: 'Widgets', lines: [], extra: { mime_types: ['application/pdf', 'text/\u0000'] } });
    expect(deep.details).toEqual([{ field: 'extra.mime_types[1]', problem: NUL }]);
  });

  it('refuses a NUL in a property name, even one the class would drop', async () => {
    const err = await failure({ name: 'Widgets', lines: [], filter: { 'a\u0000b': 1 } });
    expect(err.details).toEqual([{ field: 'filter["a\\u0000b"]', problem: `property name ${NUL}` }]);
  });

  it('reports every NUL field in document order', async () => {
    const err = await failure({ name: '\u0000', lines: [{ quantity: '\u0000' }], address: { city: '\u0000', zip: '00000' } });
    expect(err.details.map((d) => d.field)).toEqual(['name', 'lines[0].quantity', 'address.city']);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more before class-transformer sees it`, async () => {
    expect(unsafeValueProblems(nested(MAX_JSON_DEPTH))).toEqual([]);
    expect(unsafeValueProblems({ extra: nested(MAX_JSON_DEPTH - 1) })).toEqual([]);
    const err = await failure({ name: 'Widgets', lines: [], extra: nested(MAX_JSON_DEPTH) });
    expect(err.details).toEqual([{ field: '(body)', problem: `is nested more than ${MAX_JSON_DEPTH} levels deep` }]);
  });

  it('survives a payload nested 100,000 deep (no recursion) with one problem', async () => {
    const err = await failure({ name: 'Widgets', lines: nested(100_000) });
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.details).toEqual([{ field: '(body)', problem: `is nested more than ${MAX_JSON_DEPTH} levels deep` }]);
  });

  it('names a single value by the root given', () => {
    expect(unsafeValueProblems('x\u0000', 'q')).toEqual([{ field: 'q', problem: NUL }]);
    expect(unsafeValueProblems(['ok', 'x\u0000'], 'key')).toEqual([{ field: 'key[1]', problem: NUL }]);
    expect(unsafeValueProblems('plain', 'q')).toEqual([]);
    expect(unsafeValueProblems(undefined)).toEqual([]);
  });

  it('caps the number of NUL problems it lists', () => {
    expect(unsafeValueProblems(Array.from({ length: 500 }, () => '\u0000'))).toHaveLength(20);
  });
});

describe('toErrorDetails', () => {
  it('prefixes nested fields with the parent path given', async () => {
    const errors = await validate(Object.assign(new Address(), { city: 'Paris', zip: 'x' }));
    expect(toErrorDetails(errors, 'shipping')).toEqual([{ field: 'shipping.zip', problem: 'must be five digits' }]);
  });

  it('keeps a message that merely mentions the property elsewhere', () => {
    const details = toErrorDetails([
      { property: 'zip', constraints: { custom: 'a zip is five digits' }, children: [] },
      { property: 'zip', constraints: { other: 'zipcode must be set' }, children: [] },
    ]);
    expect(details).toEqual([
      { field: 'zip', problem: 'a zip is five digits' },
      { field: 'zip', problem: 'zipcode must be set' },
    ]);
  });
});

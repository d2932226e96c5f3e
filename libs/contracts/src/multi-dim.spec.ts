import 'reflect-metadata';
import type { DomainError } from './errors';
import { columnRoleName, columnTypeName, CreateMultiDimJobRequestDto, MULTI_DIM_LIMITS } from './multi-dim';
import { validatePayload } from './validation';

const FILE = '3f2b8c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

async function validate(
  body: unknown,
): Promise<{ value?: CreateMultiDimJobRequestDto; problems: Array<{ field: string; problem: string }> }> {
  try {
    return { value: await validatePayload(CreateMultiDimJobRequestDto, body), problems: [] };
  } catch (err) {
    return { problems: (err as DomainError).details };
  }
}

const schema = (columns: unknown[]) => ({ files: { fileIds: [FILE] }, schema: { name: 'Trial arms', columns } });

describe('CreateMultiDimJobRequestDto', () => {
  it('accepts a schema with wire-named types and roles, and short names as a convenience', async () => {
    const { value, problems } = await validate(
      schema([
        { key: 'arm', label: 'Arm', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER', isRowKey: true },
        { key: 'n', label: 'Patients', type: 'int', role: 'value' },
      ]),
    );
    expect(problems).toEqual([]);
    expect(value!.schema.columns.map((c) => [c.type, c.role])).toEqual([
      ['ENTITY_COLUMN_TYPE_STRING', 'ENTITY_COLUMN_ROLE_IDENTIFIER'],
      ['ENTITY_COLUMN_TYPE_INT', 'ENTITY_COLUMN_ROLE_VALUE'],
    ]);
    expect(columnTypeName(value!.schema.columns[1].type)).toBe('INT');
    expect(columnRoleName(undefined)).toBe('UNSPECIFIED');
  });

  it('names the field and the problem of a bad schema', async () => {
    expect((await validate({ files: { fileIds: [FILE] } })).problems).toEqual([{ field: 'schema', problem: 'is required' }]);
    expect((await validate(schema([]))).problems).toEqual([{ field: 'schema.columns', problem: 'must have at least one column' }]);
    expect((await validate({ files: {}, schema: [] })).problems).toEqual([{ field: 'schema', problem: 'must be an object' }]);
    const text = (await validate({ files: {}, schema: 'rows' })).problems;
    expect(text.map((p) => p.field)).toEqual(text.map(() => 'schema'));
    expect(text).toContainEqual({ field: 'schema', problem: 'must be an object' });
    const { problems } = await validate(schema([{ key: 'a b', label: '', type: 'DATE', isRowKey: 'yes', allowedValues: [1] }]));
    expect([...new Set(problems.map((p) => p.field))].sort()).toEqual(
      [
        'schema.columns[0].allowedValues',
        'schema.columns[0].isRowKey',
        'schema.columns[0].key',
        'schema.columns[0].label',
        'schema.columns[0].type',
      ].sort(),
    );
    const many = Array.from({ length: MULTI_DIM_LIMITS.columns + 1 }, (_, i) => ({ key: `c${i}`, label: `C${i}` }));
    expect((await validate(schema(many))).problems).toEqual([
      { field: 'schema.columns', problem: `must have at most ${MULTI_DIM_LIMITS.columns} columns` },
    ]);
  });

  it('refuses NUL characters in labels', async () => {
    const { problems } = await validate(schema([{ key: 'a', label: 'A\u0000' }]));
    expect(problems).toEqual([expect.objectContaining({ field: 'schema.columns[0].label' })]);
  });
});

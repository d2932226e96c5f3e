import type { Schemas } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { jobEnded, ok, statusOf } from './support/client';
import { Indexer, type IndexedFile } from './support/indexing';

/**
 * Multi-dimensional extraction through the HTTP API with every service running: corpus tables are
 * uploaded and indexed, a schema is sent, and the rows come back typed, merged across files on the
 * row key, each cell citing a table cell (CELL, or BBOX for PDFs) that holds its value.
 */

type EntitySchema = Schemas['EntitySchemaDto'];
type Row = Schemas['EntityRowDto'];

const DUCKS: EntitySchema = {
  name: 'Duck counts',
  columns: [
    { key: 'year', label: 'Year', type: 'ENTITY_COLUMN_TYPE_INT', role: 'ENTITY_COLUMN_ROLE_TIMEPOINT', isRowKey: true },
    {
      key: 'ducks',
      label: 'Number of ducks',
      type: 'ENTITY_COLUMN_TYPE_INT',
      role: 'ENTITY_COLUMN_ROLE_VALUE',
      description: 'freshwater ducks counted',
    },
  ],
};

const PROSE = [
  'Supplier review',
  '',
  'Globex Corporation is based in Springfield and delivers within 14 days.',
  'Initech is based in Austin and delivers within 30 days.',
  '',
].join('\n');

describe('multi-dimensional extraction jobs', () => {
  let stack: TestStack;
  let alice: Indexer;
  let bob: Indexer;
  const files: Record<'ods' | 'xls' | 'pdf' | 'prose', IndexedFile> = {} as never;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'multidim' });
    alice = await Indexer.forNamespace(stack, 'tables', 'alice@tables.test');
    bob = await Indexer.forNamespace(stack, 'tables', 'bob@tables.test');
    files.ods = await alice.index('ducks/ducks.ods', { corpus: 'ods/docling_odf_table_with_title_01.ods' });
    files.xls = await alice.index('ducks/ducks.xls', { corpus: 'xls/docling_legacy_sample.xls' });
    files.pdf = await alice.index('papers/corrosion.pdf', { corpus: 'pdf/unstructured_embedded-images-tables.pdf' });
    files.prose = await alice.index('notes/suppliers.txt', { bytes: PROSE });
    for (const key of Object.keys(files) as Array<keyof typeof files>) {
      files[key] = await alice.stepsSettled(files[key].id.id, ['passage_indexing'], 180_000);
      expect(files[key].lastIndexationInfos.status).toBe('SUCCESS');
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const finished = (jobId: string) => jobEnded(alice.api, 'multi-dim-extraction', jobId);
  const job = (jobId: string) => ({ params: { path: { jobId } } });
  const launch = (fileIds: string[], schema: EntitySchema) =>
    ok(alice.api.POST('/api/core/multi-dim-extraction/jobs', { body: { files: { fileIds }, schema } }));
  const results = (jobId: string) => ok(alice.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/results', job(jobId)));
  const annotationsOf = (jobId: string) => ok(alice.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/annotations', job(jobId)));

  const value = (row: Row, key: string) => row.cells.find((c) => c.columnKey === key)?.value;

  it('reads one row per year from two spreadsheets, merged on the row key, every cell citing a cell holding its value', async () => {
    const created = await launch([files.ods.id.id, files.xls.id.id], DUCKS);
    expect(created).toMatchObject({ taskType: 'MULTI_DIM_EXTRACTION', status: expect.stringMatching(/PENDING|RUNNING/) });
    const done = await finished(created.jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2, failed: 0 } });

    const { entityExtraction } = await results(created.jobId);
    expect(entityExtraction.meta).toBe('Duck counts');
    expect(entityExtraction.rows.map((r) => [value(r, 'year'), value(r, 'ducks')])).toEqual([
      [2019, 120],
      [2020, 135],
      [2021, 150],
      [2022, 170],
      [2023, 160],
      [2024, 180],
    ]);
    expect(entityExtraction.explanation).toContain('6 rows');

    const annotations = await annotationsOf(created.jobId);
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    for (const row of entityExtraction.rows) {
      for (const cell of row.cells) {
        // The same table in two files: each value is cited in both.
        expect(cell.referenceIds).toHaveLength(2);
        const cited = cell.referenceIds.map((r) => byId.get(r.id)!);
        expect(new Set(cited.map((a) => a.data.documentId))).toEqual(new Set([files.ods.id.id, files.xls.id.id]));
        for (const a of cited) {
          expect(a.data.content.trim()).toBe(String(cell.value));
          expect(a.data.positions[0].type).toBe('CELL');
        }
      }
    }
    expect(entityExtraction.referenceIds.length).toBe(annotations.length);

    const inputs = await ok(alice.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/inputs', job(created.jobId)));
    expect(inputs.schema.columns.map((c) => c.key)).toEqual(['year', 'ducks']);
  });

  it('reads a PDF table with its header wrapped over two lines, citing BBOX cells, units split into the UNIT column', async () => {
    // Short type and role names: the API takes them besides the prefixed ones the document lists.
    const schema = {
      name: 'Inhibitor concentrations',
      columns: [
        { key: 'concentration', label: 'Inhibitor concentration', type: 'INT', role: 'IDENTIFIER', isRowKey: true },
        { key: 'rate', label: 'Corrosion rate', type: 'FLOAT', role: 'VALUE' },
        { key: 'rate_unit', label: 'Rate unit', type: 'STRING', role: 'UNIT' },
      ],
    } as unknown as EntitySchema;
    const created = await launch([files.pdf.id.id], schema);
    expect((await finished(created.jobId)).status).toBe('SUCCESS');
    const { entityExtraction } = await results(created.jobId);
    expect(entityExtraction.rows.map((r) => [value(r, 'concentration'), value(r, 'rate'), value(r, 'rate_unit')])).toEqual([
      [0, 2.8163, 'mm/year'],
      [2, 1.5054, 'mm/year'],
      [4, 0.9476, 'mm/year'],
      [6, 0.4318, 'mm/year'],
      [8, 0.3772, 'mm/year'],
      [10, 0.0919, 'mm/year'],
    ]);
    const annotations = await annotationsOf(created.jobId);
    const rate = entityExtraction.rows[0].cells.find((c) => c.columnKey === 'rate')!;
    const cited = annotations.find((a) => a.id.id === rate.referenceIds[0].id)!;
    expect(cited.data).toMatchObject({ content: '2.8163', positions: [{ type: 'BBOX', page_number: 1 }] });
  });

  it('reads entities stated in prose when a file has no table, citing the lines they were read from', async () => {
    // Short type and role names, as above.
    const schema = {
      name: 'Suppliers',
      columns: [
        { key: 'supplier', label: 'Supplier', type: 'STRING', role: 'IDENTIFIER', isRowKey: true, description: 'company name' },
        { key: 'city', label: 'City', type: 'STRING', role: 'LABEL', description: 'where the supplier is based' },
        { key: 'days', label: 'Delivery days', type: 'INT', role: 'VALUE', description: 'days to deliver' },
      ],
    } as unknown as EntitySchema;
    const created = await launch([files.prose.id.id], schema);
    expect((await finished(created.jobId)).status).toBe('SUCCESS');
    const { entityExtraction } = await results(created.jobId);
    // Two suppliers named in one paragraph: the built-in reader names both, then answers each column.
    expect(entityExtraction.rows.map((r) => [value(r, 'supplier'), value(r, 'days')])).toEqual([
      ['Globex Corporation', 14],
      ['Initech', 30],
    ]);
    expect(String(value(entityExtraction.rows[0], 'city'))).toMatch(/^Springfield/);
    expect(entityExtraction.explanation).toContain('the text of suppliers.txt');
    const annotations = await annotationsOf(created.jobId);
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    for (const row of entityExtraction.rows) {
      for (const key of ['supplier', 'days']) {
        const cell = row.cells.find((c) => c.columnKey === key)!;
        const cited = byId.get(cell.referenceIds[0].id)!;
        expect(cited.data.positions[0].type).toBe('LINE');
        expect(cited.data.content).toContain(String(cell.value));
      }
    }
  });

  it('answers a bad schema with 400 naming the field, and keeps jobs to their owner', async () => {
    const bad = await alice.call('POST', '/api/core/multi-dim-extraction/jobs', {
      files: { fileIds: [files.ods.id.id] },
      schema: {
        name: 'x',
        columns: [
          { key: 'a', label: 'A' },
          { key: 'a', label: 'B', type: 'DATE' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('schema.columns[1].type');
    const dup = await alice.call('POST', '/api/core/multi-dim-extraction/jobs', {
      files: { fileIds: [files.ods.id.id] },
      schema: {
        name: 'x',
        columns: [
          { key: 'a', label: 'A' },
          { key: 'a', label: 'B' },
        ],
      },
    });
    expect(dup.status).toBe(400);
    expect(JSON.stringify(await dup.json())).toContain('schema.columns[1].key');
    expect((await alice.call('POST', '/api/core/multi-dim-extraction/jobs', { files: { fileIds: [files.ods.id.id] } })).status).toBe(400);

    const created = await launch([files.ods.id.id], DUCKS);
    const id = job(created.jobId);
    expect(await statusOf(bob.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}', id))).toBe(404);
    expect(await statusOf(bob.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/inputs', id))).toBe(404);
    expect(await statusOf(bob.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/results', id))).toBe(404);
    expect(await statusOf(bob.api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/annotations', id))).toBe(404);
    const firstFifty = { params: { query: { page: 0, pageSize: 50 } } };
    const listed = await ok(alice.api.GET('/api/core/multi-dim-extraction/jobs', firstFifty));
    expect(listed.data.map((j) => j.jobId)).toContain(created.jobId);
    expect((await ok(bob.api.GET('/api/core/multi-dim-extraction/jobs', firstFifty))).totalElements).toBe(0);
    await finished(created.jobId);
  });
});

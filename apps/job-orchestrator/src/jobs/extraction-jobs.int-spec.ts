import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { type ReaderPassage } from '@docintel/answering';
import {
  ErrorCode,
  ExtractionJobsCreate,
  JobsAnnotations,
  JobsResults,
  MultiDimExtractionJobsCreate,
  MultiDimExtractionJobsRows,
  type MetaResultDto,
} from '@docintel/contracts';
import {
  NS,
  F1,
  F2,
  UNINDEXED,
  files,
  fake,
  rpc,
  reader,
  alice,
  bob,
  aliceElsewhere,
  settle,
  rejection,
  useJobsOrchestrator,
} from '../testing/jobs-fixture';

/** Extraction and multi-dimensional extraction jobs: values and rows per file, their citations, and files that fail. */

useJobsOrchestrator();

describe('extraction jobs', () => {
  it('extracts each meta from each file; one bad file fails its own values; known metadata answers its meta', async () => {
    const extra = randomUUID();
    files.set(extra, { name: 'gone.txt', status: 'SUCCESS', namespace: NS });
    fake.failFile = extra;
    const job = await rpc.call(
      ExtractionJobsCreate,
      {
        files: { fileIds: [F1, F2, extra] },
        metas: [
          { meta: 'title', answerType: { dataType: 'STRING' } },
          { meta: 'Revenue', description: 'the Revenue' },
        ],
      },
      alice,
    );
    expect(job).toMatchObject({ taskType: 'EXTRACTION', status: 'PENDING', progress: { total: 3 } });
    const done = await settle('extraction', job.jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 3, done: 2, failed: 1, answered: 6 } });
    const results = (await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice)).items as MetaResultDto[];
    expect(results.map((r) => [r.fileId, r.meta, r.found])).toEqual([
      [F1, 'title', false],
      [F1, 'Revenue', true],
      [F2, 'title', true],
      [F2, 'Revenue', false],
      [extra, 'title', false],
      [extra, 'Revenue', false],
    ]);
    expect(results[1]).toMatchObject({
      answer: { strValue: 'Revenue' },
      rawValue: 'Revenue',
      answerType: { dataType: 'STRING', multiValued: false },
    });
    expect(results[2]).toMatchObject({ answer: { strValue: 'Acme Corp' }, explanation: expect.stringContaining("document's metadata") });
    expect(results[4].explanation).toBe(`The value could not be read from this file: File ${extra} was deleted`);
    expect(results[0]).toMatchObject({ answer: {}, rawValue: null });
    const annotations = (await rpc.call(JobsAnnotations, { kind: 'extraction', jobId: job.jobId }, alice)).items;
    const cited = annotations.find((a) => a.id.id === results[2].referenceIds[0].id);
    expect(cited?.data).toMatchObject({
      documentId: F2,
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 15, column_index_stop: 24 }],
    });
  });

  it('gives the results of a large job in parts that each fit in a NATS message', async () => {
    const many = Array.from({ length: 250 }, (_, i) => {
      const id = randomUUID();
      files.set(id, { name: `f${i}.txt`, status: 'SUCCESS', namespace: NS });
      return id;
    });
    const job = await rpc.call(ExtractionJobsCreate, { files: { fileIds: many }, metas: [{ meta: 'Revenue' }] }, alice);
    expect(await settle('extraction', job.jobId, alice, 60_000)).toMatchObject({ status: 'SUCCESS', progress: { total: 250, done: 250 } });
    const first = await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice);
    expect([first.items.length, first.nextUnit]).toEqual([200, 200]);
    const second = await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId, fromUnit: 200 }, alice);
    expect([second.items.length, second.nextUnit]).toEqual([50, null]);
    expect([...first.items, ...second.items].map((r) => (r as MetaResultDto).fileId)).toEqual(many);
  });

  it('ends at once with no results when every file was skipped as unindexed', async () => {
    const job = await rpc.call(
      ExtractionJobsCreate,
      { files: { fileIds: [UNINDEXED] }, metas: [{ meta: 'title' }], config: { skip_unindexed_files: true } },
      alice,
    );
    expect(job.status).toBe('SUCCESS');
    expect(await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice)).toEqual({ items: [], nextUnit: null });
  });
});

describe('multi-dimensional extraction jobs', () => {
  it("reads rows from a file's table and, for a file without one, from its text, each cell citing where it was read", async () => {
    reader.script = (q, passages) => {
      const p = passages.find((x) => x.fileId === F2);
      if (!p) return Promise.resolve({ found: false, rawValue: '', value: null, confidence: 0, explanation: 'No passage.', citations: [] });
      if (q.question.startsWith('Who are')) {
        const at = p.text.indexOf('Acme Corp');
        return Promise.resolve({
          found: true,
          rawValue: 'Acme Corp',
          value: { strListValue: ['Acme Corp'] },
          confidence: 0.7,
          explanation: 'Named in notes.',
          citations: [{ passageId: p.id, start: at, end: at + 9 }],
        });
      }
      return Promise.resolve({
        found: true,
        rawValue: '7',
        value: { longValue: 7 },
        confidence: 0.6,
        explanation: 'Read in notes.',
        citations: [{ passageId: p.id, start: 0, end: 3 }],
      });
    };
    const schema = {
      name: 'Amounts',
      columns: [
        { key: 'item', label: 'Item', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER', isRowKey: true },
        { key: 'amount', label: 'Amount', type: 'ENTITY_COLUMN_TYPE_INT', role: 'ENTITY_COLUMN_ROLE_VALUE' },
      ],
    };
    const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1, F2] }, schema }, alice);
    expect(created.taskType).toBe('MULTI_DIM_EXTRACTION');
    expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2 } });

    const part = await rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, alice);
    expect(part.nextRow).toBeNull();
    expect(part.rows.map((r) => r.cells.map((c) => c.value))).toEqual([
      ['Revenue', 1250000],
      ['Acme Corp', 7],
    ]);
    expect(part.head.explanation).toBe('2 rows of "Amounts" from 2 files, read from tables of report.xlsx and the text of notes.txt.');
    // The text rows asked one question for the entities, then one per other column.
    expect(reader.calls.map((c) => c.question.question)).toEqual(['Who are the Items? Amount', 'What is the Amount of Acme Corp?']);

    const annotations = (await rpc.call(JobsAnnotations, { kind: 'multi-dim-extraction', jobId: created.jobId }, alice)).items;
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    const positionOf = (ref: { id: string }) => byId.get(ref.id)?.data.positions[0];
    expect(positionOf(part.rows[0].cells[1].referenceIds[0])).toEqual({ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 1 });
    expect(positionOf(part.rows[1].cells[1].referenceIds[0])).toMatchObject({ type: 'LINE', line_number: 3 });

    expect((await rejection(rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, bob))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, aliceElsewhere))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it("with a reader that fills whole schemas (the LLM), reads the file's passages in one request and cites every value", async () => {
    const rowsReader = reader as unknown as { readRows?: (schema: { name: string }, passages: ReaderPassage[]) => Promise<unknown> };
    const asked: string[] = [];
    rowsReader.readRows = (schema, passages) => {
      asked.push(schema.name);
      const p = passages.find((x) => x.fileId === F2)!;
      const at = p.text.indexOf('Acme Corp');
      return Promise.resolve({
        explanation: 'From the notes.',
        rows: [
          {
            cells: [
              {
                columnKey: 'company',
                value: 'Acme Corp',
                explanation: 'Read in notes.txt.',
                citations: [{ passageId: p.id, start: at, end: at + 9 }],
              },
              { columnKey: 'city', value: null, explanation: 'The passages do not state it.', citations: [] },
            ],
          },
        ],
      });
    };
    try {
      const schema = {
        name: 'Companies',
        columns: [
          { key: 'company', label: 'Company', isRowKey: true },
          { key: 'city', label: 'City' },
        ],
      };
      const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F2] }, schema }, alice);
      expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS' });
      const part = await rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, alice);
      expect(asked).toEqual(['Companies']);
      expect(reader.calls).toHaveLength(0); // no question-by-question reading
      expect(part.rows.map((r) => r.cells.map((c) => c.value))).toEqual([['Acme Corp', null]]);
      const annotations = (await rpc.call(JobsAnnotations, { kind: 'multi-dim-extraction', jobId: created.jobId }, alice)).items;
      expect(annotations.find((a) => a.id.id === part.rows[0].cells[0].referenceIds[0].id)?.data.positions[0]).toMatchObject({
        type: 'LINE',
        line_number: 3,
      });
    } finally {
      delete rowsReader.readRows;
    }
  });

  it('fails a file whose tables cannot be read with the reason, and the job when every file failed', async () => {
    const schema = { name: 'Amounts', columns: [{ key: 'item', label: 'Item' }] };
    const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1] }, schema }, alice);
    expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS' });
    fake.failTables = true;
    try {
      const failing = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1] }, schema }, alice);
      const job = await settle('multi-dim-extraction', failing.jobId);
      expect(job.status).toBe('FAILED');
      expect(job.errorMessage).toContain('tables are unreadable');
    } finally {
      fake.failTables = false;
    }
  });
});

import 'reflect-metadata';
import { loadConfig } from '@docintel/config';
import { openAiReply, startOpenAiServer, type TestOpenAiServer } from '@docintel/testing';
import type { ReaderPassage } from '../reader';
import type { EntitySchemaSpec } from '../tables/types';
import { createLlmReader } from './create-llm-reader';
import { LlmEnv } from './llm-env';
import { isEntityRowsReader, typedCellValue } from './llm-rows';

/**
 * Multi-dimensional extraction through the LLM path, against a local server speaking the OpenAI
 * chat-completions protocol (no paid API can be reached from tests): what is tested is our side,
 * the schema sent, and the checks that keep every value cited.
 */

const PASSAGES: ReaderPassage[] = [
  { id: 'row-1', fileId: 'f', fileName: 'trial.pdf', nodeType: 'row', text: 'Placebo | 120 | 0 mg', headings: ['Arms'], score: 1 },
  { id: 'row-2', fileId: 'f', fileName: 'trial.pdf', nodeType: 'row', text: 'Low dose | 118 | 2.5 mg', headings: ['Arms'], score: 1 },
  {
    id: 'para-1',
    fileId: 'f',
    fileName: 'trial.pdf',
    nodeType: 'paragraph',
    text: 'A third arm, high dose, enrolled 121 patients.',
    headings: [],
    score: 0.5,
  },
];

const SCHEMA: EntitySchemaSpec = {
  name: 'Trial arms',
  columns: [
    { key: 'arm', label: 'Arm', type: 'STRING', role: 'IDENTIFIER', isRowKey: true },
    { key: 'n', label: 'Patients', type: 'INT', role: 'VALUE' },
    { key: 'phase', label: 'Phase', type: 'STRING', role: 'GROUP', allowedValues: ['Phase II', 'Phase III'] },
  ],
};

describe('LlmReader.readRows over an OpenAI-compatible endpoint', () => {
  let server: TestOpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(() => server.stop());
  beforeEach(() => server.reset());

  const reader = () =>
    createLlmReader(
      loadConfig(LlmEnv, { LLM_BASE_URL: server.baseUrl, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '2000' }),
      {
        retryBaseDelayMs: 5,
      },
    );

  it('sends the columns and passages with a JSON schema, and keeps only values whose quote is found in the passage named', async () => {
    server.enqueue(
      openAiReply.output({
        explanation: 'Arms from the table and the text.',
        rows: [
          {
            cells: [
              { columnKey: 'arm', value: 'Placebo', passageId: 'row-1', quote: 'Placebo' },
              { columnKey: 'n', value: 120, passageId: 'row-1', quote: '120' },
            ],
          },
          {
            cells: [
              { columnKey: 'arm', value: 'High dose', passageId: 'para-1', quote: 'high dose' },
              { columnKey: 'n', value: '121', passageId: 'para-1', quote: 'enrolled 121 patients' },
              { columnKey: 'phase', value: 'phase 2', passageId: 'para-1', quote: 'Phase 2' },
            ],
          },
          { cells: [{ columnKey: 'arm', value: 'Invented', passageId: 'row-2', quote: 'Invented arm' }] },
        ],
      }),
    );
    const r = reader();
    expect(isEntityRowsReader(r)).toBe(true);
    const answer = await r.readRows(SCHEMA, PASSAGES);

    const request = server.requests[0];
    expect(request.structuredOutput.method).not.toBe('none');
    const sent = JSON.stringify(request.body?.messages);
    expect(sent).toContain('arm: Arm; type STRING; role IDENTIFIER; identifies the row');
    expect(sent).toContain('<passage id=\\"row-1\\"');

    expect(answer.rows.map((row) => row.cells.map((c) => c.value))).toEqual([
      ['Placebo', 120, null],
      ['High dose', 121, null],
    ]);
    const [placebo, high] = answer.rows;
    expect(placebo.cells[1].citations).toEqual([{ passageId: 'row-1', start: 10, end: 13 }]);
    expect(high.cells[0].citations).toEqual([{ passageId: 'para-1', start: 13, end: 22 }]);
    // The phase was neither an allowed value nor quoted from the passage: left empty, with the reason.
    expect(high.cells[2].explanation).toMatch(/Not used/);
    expect(answer.explanation).toBe('Arms from the table and the text.');
  });

  it('does not ask the model without passages', async () => {
    const answer = await reader().readRows(SCHEMA, []);
    expect(answer.rows).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('ends in the endpoint error when the model keeps failing', async () => {
    server.script = () => openAiReply.error(500, { message: 'model crashed' });
    await expect(reader().readRows(SCHEMA, PASSAGES)).rejects.toThrow(/500/);
  });
});

describe('typedCellValue', () => {
  const col = (type: EntitySchemaSpec['columns'][number]['type'], allowedValues?: string[]) => ({
    key: 'k',
    label: 'K',
    type,
    role: 'VALUE' as const,
    allowedValues,
  });

  it('types the model’s value as the column says', () => {
    expect(typedCellValue(col('INT'), '1,204')).toEqual({ value: 1204 });
    expect(typedCellValue(col('INT'), 12.6)).toEqual({ value: 13 });
    expect(typedCellValue(col('FLOAT'), 'n/a')).toMatchObject({ value: null, problem: expect.stringContaining('not a number') });
    expect(typedCellValue(col('BOOL'), 'yes')).toEqual({ value: true });
    expect(typedCellValue(col('STRING', ['Phase II']), 'phase ii')).toEqual({ value: 'Phase II' });
    expect(typedCellValue(col('STRING'), null)).toEqual({ value: null });
  });
});

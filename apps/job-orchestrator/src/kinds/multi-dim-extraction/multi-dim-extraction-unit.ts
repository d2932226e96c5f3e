import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  extractEntityRows,
  isEntityRowsReader,
  type CellEvidence,
  type EntityRowsReader,
  type EntityCell,
  type EntityColumnSpec,
  type EntityRow,
  type EntitySchemaSpec,
  type EntityValue,
  type Reader,
  type ReaderAnswer,
  type SourceTable,
} from '@docintel/answering';
import {
  FilesTables,
  MULTI_DIM_LIMITS,
  PassagesSearch,
  type AnswerTypeDto,
  type DataValue,
  type FileTableDto,
  type PassageDto,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobKindRunner } from '../../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../../jobs/job-records';
import type { UnitOutcome } from '../../jobs/jobs.repository';
import type { JobsEnv } from '../../jobs.env';
import { citationsToAnnotations, type CitedAnnotation } from '../../reading/citations';
import { PassageRanking } from '../../reading/passage-ranking';
import { READER } from '../../reading/reader.token';
import { jobContext, toReaderPassage } from '../../reading/unit-context';
import { toSchemaSpec, type MultiDimExtractionInputs } from './multi-dim-extraction-inputs';

/** Entities looked for in the text of a file that has no table for the schema. */
export const MAX_TEXT_ENTITIES = 10;
const CONTENT_CHARS = 2000;

/** Where a cell was read, with the annotation that cites it. */
export type CitedEvidence = CellEvidence & { annotationId: string };

/** What one file of a multi-dimensional extraction job gave: its rows, and what was read to find them. */
export interface FileEntityRows {
  fileId: string;
  fileName: string;
  tablesRead: number;
  tablesUsed: number;
  /** Rows found in prose by the question-answering engine (no table matched the schema). */
  textRows: number;
  /** Rows a model that fills whole schemas (ANSWERING_ENGINE=llm) read from the file's passages. */
  modelRows?: number;
  rows: EntityRow[];
  /** How many rows the file's tables gave when more than MULTI_DIM_LIMITS.rowsPerFile were kept. */
  truncatedFrom?: number;
}

const fromDataValue = (v: DataValue | null): EntityValue | null =>
  v?.longValue ?? v?.doubleValue ?? v?.boolValue ?? v?.dateValue ?? v?.strValue ?? v?.strListValue?.join('; ') ?? null;

const plural = (label: string) => (/s$/i.test(label) ? label : `${label}s`);

const answerTypeOf = (c: EntityColumnSpec): AnswerTypeDto => {
  if (c.allowedValues?.length) return { dataType: 'ENUM', multiValued: false, enumValues: c.allowedValues };
  if (c.type === 'INT' || c.type === 'FLOAT' || c.type === 'BOOL') return { dataType: c.type, multiValued: false };
  return { dataType: 'STRING', multiValued: false };
};

/**
 * One file of a multi-dimensional extraction job. Tables first: the file's tables (indexing.files.tables)
 * go through the table engine, whose every cell cites its table cell. A file with no table for the
 * schema falls back to its text: the question-answering engine names the entities (the row-key or
 * identifier column), then answers one question per column per entity, each answer cited where it
 * was read. With a reader that fills whole schemas (ANSWERING_ENGINE=llm) the model reads the
 * file's best passages (table rows among them) instead, and only values whose quote checks out are
 * kept, each cited. Rows of different files are merged on their row keys when the results are read.
 */
@Injectable()
export class MultiDimExtractionUnitRunner implements JobKindRunner<MultiDimExtractionInputs, FileEntityRows> {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(READER) private readonly reader: Reader,
    private readonly ranking: PassageRanking,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
  ) {}

  async run(
    job: JobRecord<MultiDimExtractionInputs>,
    unit: UnitRecord<FileEntityRows>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<UnitOutcome<FileEntityRows>> {
    const spec = toSchemaSpec(job.inputs.schema);
    const fileId = unit.fileId as string;
    const fileName = job.files.find((f) => f.fileId === fileId)?.name ?? fileId;
    const ctx = jobContext(job, requestId);
    const annotations: CitedAnnotation[] = [];
    if (isEntityRowsReader(this.reader)) {
      const rows = await this.fromModel(this.reader, spec, fileId, ctx, signal, annotations);
      const result: FileEntityRows = { fileId, fileName, tablesRead: 0, tablesUsed: 0, textRows: 0, modelRows: rows.length, rows };
      return { status: 'DONE', results: [result], answered: rows.length, annotations };
    }
    const tables = await this.tablesOf(fileId, ctx);
    signal.throwIfAborted();
    const extracted = extractEntityRows(spec, tables);
    const cite = tableCellCiter(annotations);
    const truncated = extracted.rows.length > MULTI_DIM_LIMITS.rowsPerFile ? extracted.rows.length : undefined;
    let rows = extracted.rows.slice(0, MULTI_DIM_LIMITS.rowsPerFile).map(cite);
    let textRows = 0;
    if (!rows.length) {
      rows = await this.fromText(spec, fileId, ctx, signal, annotations);
      textRows = rows.length;
    }
    const result: FileEntityRows = {
      fileId,
      fileName,
      tablesRead: extracted.tables.length,
      tablesUsed: extracted.tables.filter((t) => t.used).length,
      textRows,
      rows,
      ...(truncated ? { truncatedFrom: truncated } : {}),
    };
    return { status: 'DONE', results: [result], answered: rows.length, annotations };
  }
  /** A file that could not be read: no rows, the reason is the unit's error (and the job's, when every file failed). */
  failedResults(job: JobRecord<MultiDimExtractionInputs>, unit: UnitRecord<FileEntityRows>): FileEntityRows[] {
    const fileId = unit.fileId as string;
    return [
      { fileId, fileName: job.files.find((f) => f.fileId === fileId)?.name ?? fileId, tablesRead: 0, tablesUsed: 0, textRows: 0, rows: [] },
    ];
  }

  /** Every table of the file, its pieces joined. */
  private async tablesOf(fileId: string, ctx: ReturnType<typeof jobContext>): Promise<SourceTable[]> {
    const out: FileTableDto[] = [];
    for (let from: number | null = 0; from !== null;) {
      const part: { tables: FileTableDto[]; nextTable: number | null } = await this.rpc.call(FilesTables, { fileId, fromTable: from }, ctx);
      for (const t of part.tables) {
        const last = out[out.length - 1];
        if (last && last.tableId === t.tableId) last.rows.push(...t.rows);
        else out.push({ ...t, rows: [...t.rows] });
      }
      from = part.nextTable;
    }
    return out;
  }

  /** With a reader that fills whole schemas (the LLM): the file's best passages, table rows among them, in one request. */
  private async fromModel(
    reader: EntityRowsReader,
    spec: EntitySchemaSpec,
    fileId: string,
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
    annotations: CitedAnnotation[],
  ): Promise<EntityRow[]> {
    const query = [spec.name, spec.description, ...spec.columns.map((c) => `${c.label} ${c.description ?? ''}`)].filter(Boolean).join(' ');
    const passages = await this.passagesOf(fileId, query, query, ctx, signal);
    const answer = await reader.readRows(spec, passages.map(toReaderPassage), signal);
    return answer.rows.map((row, i) => ({
      explanation: `Row ${i + 1} the model read from ${passages[0]?.fileName ?? 'the file'}: ${answer.explanation}`,
      sources: [],
      cells: row.cells.map((c) => {
        const cited = citationsToAnnotations(c.citations, passages);
        annotations.push(...cited);
        return { columnKey: c.columnKey, value: c.value, explanation: c.explanation, evidence: cited.map(toEvidence) };
      }),
    }));
  }

  private async fromText(
    spec: EntitySchemaSpec,
    fileId: string,
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
    annotations: CitedAnnotation[],
  ): Promise<EntityRow[]> {
    const id = spec.columns.find((c) => c.isRowKey) ?? spec.columns.find((c) => c.role === 'IDENTIFIER') ?? spec.columns[0];
    const about = [spec.name, spec.description].filter(Boolean).join(': ');
    const names = await this.ask(
      // Phrased as a list question: the built-in reader finds the entities most surely for "Who are the …s?".
      {
        question: `Who are the ${plural(id.label)}? ${spec.columns
          .filter((c) => c !== id)
          .map((c) => [c.label, c.description].filter(Boolean).join(', '))
          .join('; ')}`.slice(0, 4000),
        answerType: { dataType: 'STRING', multiValued: true },
        guidelines: about,
      },
      `${about} ${spec.columns.map((c) => c.label).join(' ')}`,
      fileId,
      ctx,
      signal,
    );
    if (!names.answer.found) return [];
    const entities = [...new Set(names.answer.rawValue.split(/\s*;\s*/).filter(Boolean))].slice(0, MAX_TEXT_ENTITIES);
    const nameCitations = citationsToAnnotations(names.answer.citations, names.passages);
    const rows: EntityRow[] = [];
    for (const entity of entities) {
      const cells: EntityCell[] = [];
      for (const column of spec.columns) {
        signal.throwIfAborted();
        if (column === id) {
          const cited = nameCitations.filter((a) => a.data.content.toLowerCase().includes(entity.toLowerCase())).slice(0, 1);
          // Entities named in one sentence share its annotation: it is written once.
          for (const a of cited) if (!annotations.includes(a)) annotations.push(a);
          cells.push({ columnKey: column.key, value: entity, explanation: names.answer.explanation, evidence: cited.map(toEvidence) });
          continue;
        }
        if (column.role === 'UNIT') {
          cells.push({ columnKey: column.key, value: null, explanation: 'Units are read from tables only.', evidence: [] });
          continue;
        }
        const { answer, passages } = await this.ask(
          {
            question: `What is the ${column.label} of ${entity}?`,
            answerType: answerTypeOf(column),
            guidelines: [column.description, about].filter(Boolean).join('\n'),
          },
          `${entity} ${column.label} ${column.description ?? ''}`,
          fileId,
          ctx,
          signal,
        );
        const cited = answer.found ? citationsToAnnotations(answer.citations, passages) : [];
        annotations.push(...cited);
        cells.push({
          columnKey: column.key,
          value: answer.found ? fromDataValue(answer.value) : null,
          explanation: answer.explanation,
          evidence: cited.map(toEvidence),
        });
      }
      rows.push({ cells, explanation: `"${entity}", found in the text of the file (no table of it matches the schema).`, sources: [] });
    }
    return rows;
  }

  private async ask(
    question: Parameters<Reader['answer']>[0],
    query: string,
    fileId: string,
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
  ): Promise<{ answer: ReaderAnswer; passages: PassageDto[] }> {
    const passages = await this.passagesOf(fileId, query, question.question, ctx, signal);
    const answer = await this.reader.answer(question, passages.map(toReaderPassage), signal);
    return { answer, passages };
  }

  /** The file's best JOB_PASSAGES passages for `query`, reranked for `rankBy` when a reranker is configured. */
  private async passagesOf(
    fileId: string,
    query: string,
    rankBy: string,
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
  ): Promise<PassageDto[]> {
    const found = await this.rpc.call(
      PassagesSearch,
      { query: query.slice(0, 8000), fileIds: [fileId], limit: this.env.JOB_PASSAGES },
      ctx,
    );
    return this.ranking.rank(rankBy, found.passages, signal);
  }
}

function toEvidence(a: CitedAnnotation): CitedEvidence {
  return {
    fileId: a.data.documentId,
    fileName: a.data.documentName,
    nodeId: a.data.nodeId ?? '',
    positions: a.data.positions,
    text: a.data.content,
    annotationId: a.id,
  };
}

/** Cites rows' table cells: one annotation per cell, however many cells and rows cite it (a unit, a sub-heading). */
function tableCellCiter(annotations: CitedAnnotation[]): (row: EntityRow) => EntityRow {
  const byNode = new Map<string, string>();
  const cite = (e: CellEvidence): CitedEvidence => {
    let id = byNode.get(e.nodeId);
    if (!id) {
      id = randomUUID();
      byNode.set(e.nodeId, id);
      const content = e.text.trim();
      annotations.push({
        id,
        data: {
          type: 'DOCUMENT_STATEMENT',
          content: content.length > CONTENT_CHARS ? `${content.slice(0, CONTENT_CHARS - 1)}…` : content,
          documentName: e.fileName,
          documentId: e.fileId,
          positions: e.positions,
          nodeId: e.nodeId,
        },
      });
    }
    return { ...e, annotationId: id };
  };
  return (row) => ({ ...row, cells: row.cells.map((c) => ({ ...c, evidence: c.evidence.map(cite) })) });
}

import type { DocumentStatementDto, OntologyDto, PassageDto } from '@docintel/contracts';
import type { AgentFile, AgentToolbox, AgentTraceStep, JobAnswer, ToolMeta, ToolQuestion } from '../types';

/**
 * Test factories for the agent engines (not exported by the library): passages with segments, a
 * toolbox over them that searches by shared words, and a trace that keeps the steps.
 */

let nodes = 0;

/** A one-paragraph passage; its single segment spans the whole text. */
export function aPassage(text: string, overrides: Partial<PassageDto> = {}): PassageDto {
  const id = overrides.id ?? `node-${++nodes}`;
  return {
    id,
    fileId: 'file-1',
    fileName: 'report.pdf',
    nodeType: 'paragraph',
    text,
    headings: [],
    segments: [{ nodeId: id, nodeType: 'paragraph', start: 0, end: text.length, positions: [] }],
    score: 1,
    ...overrides,
  };
}

export function aStatement(content: string, overrides: Partial<DocumentStatementDto> = {}): DocumentStatementDto {
  return {
    type: 'DOCUMENT_STATEMENT',
    content,
    documentName: 'report.pdf',
    documentId: 'file-1',
    positions: [],
    nodeId: 'node-s',
    ...overrides,
  };
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

export interface FakeToolboxOptions {
  files?: AgentFile[];
  ontologies?: Record<string, OntologyDto[]>;
  askQuestions?: (questions: ToolQuestion[], fileIds: string[] | undefined) => JobAnswer[] | Promise<JobAnswer[]>;
  extractMetadata?: (metas: ToolMeta[], fileIds: string[] | undefined) => JobAnswer[] | Promise<JobAnswer[]>;
  /** Makes searchPassages fail, as a service that is down would. */
  searchError?: Error;
}

/** The toolbox calls a fake made, for assertions. */
export interface FakeToolbox extends AgentToolbox {
  readonly searches: Array<{ query: string; fileIds?: string[]; limit: number }>;
}

/**
 * A toolbox over `passages`: search ranks them by the words they share with the query (headings
 * count), best first, in their given order on ties; readAround walks a file's passages in order.
 */
export function fakeToolbox(passages: PassageDto[], options: FakeToolboxOptions = {}): FakeToolbox {
  const files = options.files ?? [...new Map(passages.map((p) => [p.fileId, { fileId: p.fileId, name: p.fileName }])).values()];
  const searches: FakeToolbox['searches'] = [];
  return {
    files,
    searches,
    searchPassages(query, opts) {
      searches.push({ query, ...opts });
      if (options.searchError) return Promise.reject(options.searchError);
      const asked = words(query);
      const scored = passages
        .filter((p) => !opts.fileIds || opts.fileIds.includes(p.fileId))
        .map((p) => ({ p, score: [...words(`${p.headings.join(' ')} ${p.text}`)].filter((w) => asked.has(w)).length }))
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score);
      return Promise.resolve(scored.slice(0, opts.limit).map((s) => ({ ...s.p, score: s.score })));
    },
    readAround(fileId, nodeId, { before, after }) {
      const inFile = passages.filter((p) => p.fileId === fileId);
      const i = inFile.findIndex((p) => p.id === nodeId);
      if (i < 0) return Promise.reject(new Error(`No node ${nodeId} in file ${fileId}`));
      return Promise.resolve(inFile.slice(Math.max(0, i - before), i + after + 1));
    },
    ontologies: (fileId) => Promise.resolve(options.ontologies?.[fileId] ?? []),
    askQuestions: async (questions, fileIds) => (options.askQuestions ? options.askQuestions(questions, fileIds) : []),
    extractMetadata: async (metas, fileIds) => (options.extractMetadata ? options.extractMetadata(metas, fileIds) : []),
  };
}

/** A trace function and the steps it was given. */
export function recordingTrace(): { steps: AgentTraceStep[]; trace: (step: AgentTraceStep) => void } {
  const steps: AgentTraceStep[] = [];
  return { steps, trace: (step) => void steps.push(step) };
}

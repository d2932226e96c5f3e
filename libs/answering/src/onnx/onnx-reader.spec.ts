import 'reflect-metadata';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ConfigError } from '@docintel/config';
import { OnnxError } from '@docintel/ai';
import { writeTinyBertModel, type TinyBertOptions } from '@docintel/testing';
import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage, ReaderQuestion } from '../reader';
import { createOnnxReader, createOnnxReranker, OnnxAnsweringEnv } from './onnx-answering-env';
import { OnnxReader, type OnnxReaderOptions } from './onnx-reader';

// A tiny random-weight QA graph generated here and run by ONNX Runtime for real. Large logits are
// planted on a few tokens so that the test knows the answer: "paris" starts and ends an answer,
// "new" starts one and "york" ends it, "42" is a weaker answer; [CLS] carries the "no answer" score.

const WORDS = [
  'the',
  'capital',
  'of',
  'france',
  'is',
  'paris',
  'new',
  'york',
  'where',
  'what',
  'and',
  'far',
  'from',
  'he',
  'moved',
  'to',
  'in',
  'pages',
  'has',
  'contract',
  '42',
  '.',
  ',',
  '?',
  'un',
  '##able',
];
const QA: TinyBertOptions = {
  head: 'qa',
  vocab: WORDS,
  hidden: 8,
  plantedSpans: { paris: [8, 8], new: [8, 0], york: [0, 8], '42': [6, 6], '[CLS]': [5, 5] },
};

const STRING: AnswerTypeDto = { dataType: 'STRING', multiValued: false };
const ask = (question: string, answerType: AnswerTypeDto = STRING): ReaderQuestion => ({ question, answerType });
let nextId = 1;
const passage = (text: string, headings: string[] = []): ReaderPassage => ({
  id: `node-${nextId++}`,
  fileId: 'file-1',
  fileName: 'atlas.pdf',
  nodeType: 'paragraph',
  text,
  headings,
  score: 1,
});

describe('OnnxReader (extractive QA on a tiny generated graph)', () => {
  const root = mkdtempSync(join(tmpdir(), 'onnx-reader-'));
  const dir = writeTinyBertModel(join(root, 'reader'), QA);
  const readers: OnnxReader[] = [];
  const open = (options: Partial<OnnxReaderOptions> = {}) => {
    const r = new OnnxReader({ modelDir: dir, threads: 1, maxQueue: 16, ...options });
    readers.push(r);
    return r;
  };
  afterAll(async () => {
    await Promise.all(readers.map((r) => r.close()));
    rmSync(root, { recursive: true, force: true });
  });

  it('finds the span and cites the exact characters of the passage', async () => {
    const reader = open();
    expect(reader.name).toBe('local-onnx:reader');
    const p = passage('The capital of France is Paris.', ['Europe', 'Capitals']);
    const answer = await reader.answer(ask('What is the capital of France?'), [passage('He moved.'), p]);
    expect(answer).toMatchObject({ found: true, rawValue: 'Paris', value: { strValue: 'Paris' } });
    expect(answer.citations).toEqual([{ passageId: p.id, start: 25, end: 30 }]);
    expect(p.text.slice(25, 30)).toBe('Paris');
    expect(answer.confidence).toBeGreaterThan(0.5);
    expect(answer.confidence).toBeLessThanOrEqual(1);
    expect(answer.explanation).toMatch(/^Read from atlas.pdf, section "Capitals" by the local model reader \(confidence 0\.\d\d\)\.$/);
  });

  it('maps a multi-token span back to the original characters, spacing and case kept', async () => {
    const p = passage('He moved to  NEW   York in 42.');
    const answer = await open().answer(ask('Where did he move to?'), [p]);
    expect(answer.rawValue).toBe('NEW   York');
    expect(answer.citations).toEqual([{ passageId: p.id, start: 13, end: 23 }]);
  });

  it('reads only the passage: a planted word in the question is never the answer', async () => {
    const answer = await open().answer(ask('Is the capital of France Paris?'), [passage('The capital of France is far from here.')]);
    expect(answer.found).toBe(false);
    expect(answer).toMatchObject({ rawValue: '', value: null, citations: [] });
    expect(answer.explanation).toMatch(/^The local model reader found no answer in 1 passage\(s\)\./);
  });

  it('windows a long passage (max tokens, stride) and finds an answer past the first window', async () => {
    const reader = open({ maxSeqLength: 32, docStride: 8 });
    const filler = 'the capital of france is far from the capital. '.repeat(20);
    const p = passage(`${filler}He moved to Paris.`);
    const answer = await reader.answer(ask('Where?'), [p]);
    expect(answer.found).toBe(true);
    const [citation] = answer.citations;
    expect(p.text.slice(citation.start, citation.end)).toBe('Paris');
    expect(citation.start).toBe(filler.length + 'He moved to '.length);
  });

  it('prefers a span that reads as the requested type', async () => {
    // "New York" scores higher than "42" but is no integer.
    const reader = open({ minConfidence: 0.001, maxAnswerTokens: 3 });
    const p = passage('New York is far. The contract has 42 pages.');
    const answer = await reader.answer(ask('How many pages?', { dataType: 'INT', multiValued: false }), [p]);
    expect(answer).toMatchObject({ found: true, rawValue: '42', value: { longValue: 42 } });
  });

  it('gives several values for a multi-valued question, without overlaps', async () => {
    const reader = open({ maxAnswerTokens: 2, minConfidence: 0.01 });
    const p = passage('Paris is far from New York.');
    const answer = await reader.answer(ask('Which cities?', { dataType: 'STRING', multiValued: true }), [p]);
    expect(answer.found).toBe(true);
    expect(answer.rawValue.split('; ').sort()).toEqual(['New York', 'Paris']);
    expect(answer.citations.map((c) => p.text.slice(c.start, c.end)).sort()).toEqual(['New York', 'Paris']);
  });

  it('works with a graph without token_type_ids (DistilBERT)', async () => {
    const distil = writeTinyBertModel(join(root, 'distil'), { ...QA, tokenTypeIds: false });
    const reader = open({ modelDir: distil });
    const answer = await reader.answer(ask('Capital?'), [passage('The capital of France is Paris.')]);
    expect(answer.rawValue).toBe('Paris');
  });

  it('has nothing to say without passages, and stops when aborted', async () => {
    const reader = open();
    expect(await reader.answer(ask('Capital?'), [])).toMatchObject({
      found: false,
      explanation: expect.stringMatching(/No passages/) as string,
    });
    const controller = new AbortController();
    controller.abort(new Error('the job was aborted'));
    await expect(reader.answer(ask('Capital?'), [passage('Paris.')], controller.signal)).rejects.toThrow('the job was aborted');
  });

  it('refuses a graph that is not a QA model, and a folder with a missing file, naming it', async () => {
    const encoder = writeTinyBertModel(join(root, 'encoder'), { head: 'encoder', vocab: WORDS });
    const error = await open({ modelDir: encoder })
      .answer(ask('Capital?'), [passage('Paris.')])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnnxError);
    expect(error).toMatchObject({
      code: 'MODEL_LOAD_FAILED',
      message: expect.stringContaining('is not an extractive QA model: it lacks start_logits, end_logits') as string,
    });

    const broken = writeTinyBertModel(join(root, 'broken'), QA);
    unlinkSync(join(broken, 'config.json'));
    expect(() => open({ modelDir: broken })).toThrow(`config.json is missing from ${broken}`);
  });

  it('closes its worker thread; a later answer starts it again', async () => {
    const reader = open();
    await reader.answer(ask('Capital?'), [passage('The capital is Paris.')]);
    await reader.close();
    const again = await reader.answer(ask('Capital?'), [passage('The capital is Paris.')]);
    expect(again.rawValue).toBe('Paris');
  });

  it('OnnxAnsweringEnv: READER_MODEL_DIR is checked at start-up when the local model answers', () => {
    const problems = (vars: Record<string, string>): string[] => {
      try {
        loadConfig(OnnxAnsweringEnv, vars);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ ANSWERING_ENGINE: 'builtin' })).toEqual([]);
    expect(problems({ ANSWERING_ENGINE: 'local-onnx', READER_MIN_CONFIDENCE: '2' })).toEqual([
      'READER_MODEL_DIR (unset): must be an absolute path to a model folder with tokenizer.json, config.json, model.onnx: the variable is not set',
      'READER_MIN_CONFIDENCE ("2"): must be a number from 0 to 1',
    ]);
    expect(problems({ RERANKER_MODEL_DIR: join(root, 'none'), READER_MODEL_DIR: dir })).toEqual([
      `RERANKER_MODEL_DIR ("${join(root, 'none')}"): must be an absolute path to a model folder with tokenizer.json, config.json, model.onnx: ${join(root, 'none')} does not exist or cannot be read`,
    ]);
    const env = loadConfig(OnnxAnsweringEnv, { ANSWERING_ENGINE: 'local-onnx', READER_MODEL_DIR: dir, ONNX_THREADS: '2' });
    expect(env).toMatchObject({
      READER_MAX_TOKENS: 384,
      READER_DOC_STRIDE: 128,
      READER_MAX_ANSWER_TOKENS: 30,
      READER_MIN_CONFIDENCE: 0.1,
      ONNX_THREADS: 2,
    });
    const reader = createOnnxReader(env);
    readers.push(reader);
    expect(reader.name).toBe('local-onnx:reader');
    expect(createOnnxReranker(env)).toBeUndefined();
  });
});

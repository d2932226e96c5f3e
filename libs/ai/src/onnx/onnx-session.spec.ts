import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyBertModel } from '@docintel/testing';
import { bertFeeds } from './batch';
import { readModelFolder } from './model-folder';
import { OnnxError } from './onnx-error';
import { OnnxSession } from './onnx-session';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

const WORDS = ['the', 'capital', 'of', 'france', 'is', 'paris'];

describe('OnnxSession (ONNX Runtime in a worker thread, on a tiny generated graph)', () => {
  const root = mkdtempSync(join(tmpdir(), 'onnx-session-'));
  const dir = writeTinyBertModel(join(root, 'encoder'), { head: 'encoder', vocab: WORDS, hidden: 8 });
  const folder = readModelFolder(dir);
  const tokenizer = WordPieceTokenizer.fromJson(folder.tokenizerJson);
  const sessions: OnnxSession[] = [];
  const open = (maxQueue = 8, modelPath = folder.modelPath) => {
    const s = new OnnxSession({ modelPath, threads: 1, maxQueue });
    sessions.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    rmSync(root, { recursive: true, force: true });
  });

  const feedsFor = (texts: string[]) =>
    bertFeeds(
      texts.map((t) => tokenizer.encodeSingle(tokenizer.tokenize(t), 512)),
      tokenizer.padId,
      ['input_ids', 'attention_mask', 'token_type_ids'],
    );

  it('loads the graph in a worker and reports its inputs and outputs', async () => {
    const session = open();
    expect(session.started).toBe(false);
    expect(await session.info()).toEqual({
      inputNames: ['input_ids', 'attention_mask', 'token_type_ids'],
      outputNames: ['last_hidden_state'],
    });
    expect(session.started).toBe(true);
  });

  it('runs a padded batch: float32 [batch, seq, hidden], padding masked to zero', async () => {
    const session = open();
    const { feeds, length } = feedsFor(['the capital of france', 'paris']);
    const { last_hidden_state: out } = await session.run(feeds, ['last_hidden_state']);
    expect(out.dims).toEqual([2, length, 8]);
    // (A Float32Array of the worker's realm: toBeInstanceOf would compare with the test's own.)
    expect(Object.prototype.toString.call(out.data)).toBe('[object Float32Array]');
    // Row 2 ("[CLS] paris [SEP]") is padded after 3 tokens.
    const padded = out.data.subarray((length + 3) * 8, 2 * length * 8);
    expect(Array.from(padded).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.data.subarray(0, 8)).some((v) => v !== 0)).toBe(true);
  });

  it('answers concurrent requests in order and refuses more than the queue holds', async () => {
    const session = open(2);
    const { feeds } = feedsFor(['paris']);
    const first = session.run(feeds, ['last_hidden_state']);
    const second = session.run(feeds, ['last_hidden_state']);
    await expect(session.run(feeds, ['last_hidden_state'])).rejects.toMatchObject({ code: 'QUEUE_FULL' });
    const [a, b] = await Promise.all([first, second]);
    expect(Array.from(a.last_hidden_state.data)).toEqual(Array.from(b.last_hidden_state.data));
    // Room again once they are answered.
    await expect(session.run(feeds, ['last_hidden_state'])).resolves.toBeDefined();
  });

  it('reports an output the graph lacks as an inference failure', async () => {
    const session = open();
    const { feeds } = feedsFor(['paris']);
    await expect(session.run(feeds, ['start_logits'])).rejects.toMatchObject({ code: 'INFERENCE_FAILED' });
  });

  it('close() releases the session, ends the thread and fails what waited; a later call starts again', async () => {
    const session = open();
    const { feeds } = feedsFor(['the capital of france is paris']);
    await session.run(feeds, ['last_hidden_state']);
    const waiting = session.run(feeds, ['last_hidden_state']);
    const closing = session.close();
    await expect(waiting).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    await closing;
    expect(session.started).toBe(false);
    await expect(session.run(feeds, ['last_hidden_state'])).resolves.toHaveProperty('last_hidden_state');
    await session.close();
  });

  it('a model.onnx ONNX Runtime cannot read fails with MODEL_LOAD_FAILED naming the file', async () => {
    const bad = join(root, 'bad.onnx');
    writeFileSync(bad, 'not a model');
    const session = open(8, bad);
    const error = await session.info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnnxError);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining(bad) as string });
    expect(session.started).toBe(false);
  });

  it('readModelFolder names the missing file', () => {
    const partial = writeTinyBertModel(join(root, 'partial'), { head: 'encoder', vocab: WORDS });
    unlinkSync(join(partial, 'tokenizer.json'));
    expect(() => readModelFolder(partial)).toThrow(`The model folder cannot be used: tokenizer.json is missing from ${partial}`);
    writeFileSync(join(partial, 'tokenizer.json'), '{ not json');
    expect(() => readModelFolder(partial)).toThrow(new RegExp(`^tokenizer.json in ${partial} is not valid JSON`));
    expect(() => readModelFolder(join(root, 'nowhere'))).toThrow(`${join(root, 'nowhere')} does not exist or cannot be read`);
  });

  it('readModelFolder reads the hidden size and a fingerprint that follows the weights', () => {
    expect(folder).toMatchObject({ name: 'encoder', hiddenSize: 8, maxPositions: 512 });
    expect(folder.fingerprint).toMatch(/^[0-9a-f]{12}$/);
    const other = readModelFolder(writeTinyBertModel(join(root, 'other'), { head: 'encoder', vocab: WORDS, seed: 2 }));
    expect(other.fingerprint).not.toBe(folder.fingerprint);
  });
});

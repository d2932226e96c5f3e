import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Tiny BERT-shaped ONNX models, written at test time, so that the local-onnx engines are tested with
 * ONNX Runtime for real (loading, tokenisation, windowing, span decoding) without downloading a model.
 * The ONNX protobuf is written by the small encoder below: only the fields these graphs use.
 *
 * The graph: embeddings (Gather) + token-type embeddings + a dense layer (MatMul, Tanh), masked by
 * attention_mask, then one head. Weights are random (seeded) and small; tests plant larger values on
 * chosen tokens so that they know what the model will answer.
 */

export const TINY_BERT_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export type TinyBertHead =
  /** start_logits and end_logits [batch, seq], for extractive QA. */
  | 'qa'
  /** last_hidden_state [batch, seq, hidden], for a sentence encoder. */
  | 'encoder'
  /** logits [batch, 1], for a cross-encoder. */
  | 'cross-encoder';

export interface TinyBertOptions {
  head: TinyBertHead;
  /** Words and "##pieces" of the vocabulary, after the special tokens. */
  vocab: string[];
  /** Default 8. */
  hidden?: number;
  /** Whether the graph takes token_type_ids (BERT does, DistilBERT does not). Default true. */
  tokenTypeIds?: boolean;
  /** Default 1. */
  seed?: number;
  /** qa: token -> [start, end] logits added wherever the token occurs. */
  plantedSpans?: Record<string, [number, number]>;
  /** cross-encoder: token -> logit added wherever the token occurs (in the query or the passage). */
  plantedRelevance?: Record<string, number>;
  /** Whether the tokenizer lower-cases (an uncased model). Default true. */
  lowercase?: boolean;
  /** config.json's max_position_embeddings. Default 512. */
  maxPositions?: number;
}

// --- A minimal protobuf writer -------------------------------------------------------------------

class Proto {
  private readonly parts: Buffer[] = [];

  private key(field: number, wire: number): void {
    this.raw(varint(field * 8 + wire));
  }
  private raw(bytes: Buffer): void {
    this.parts.push(bytes);
  }
  int(field: number, value: number): this {
    this.key(field, 0);
    this.raw(varint(value));
    return this;
  }
  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.raw(varint(value.length));
    this.raw(Buffer.from(value));
    return this;
  }
  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }
  message(field: number, value: Proto): this {
    return this.bytes(field, value.finish());
  }
  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function varint(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`varint out of range: ${value}`);
  const out: number[] = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

// ONNX enums: TensorProto.DataType and AttributeProto.AttributeType.
const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;

function tensor(name: string, dims: number[], values: Float32Array | BigInt64Array): Proto {
  const t = new Proto();
  for (const d of dims) t.int(1, d);
  t.int(2, values instanceof Float32Array ? FLOAT : INT64);
  t.string(8, name);
  t.bytes(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  return t;
}

function valueInfo(name: string, elemType: number, shape: Array<number | string>): Proto {
  const dims = new Proto();
  for (const d of shape) dims.message(1, typeof d === 'number' ? new Proto().int(1, d) : new Proto().string(2, d));
  const tensorType = new Proto().int(1, elemType).message(2, dims);
  return new Proto().string(1, name).message(2, new Proto().message(1, tensorType));
}

function node(op: string, inputs: string[], outputs: string[], attrs: Record<string, number> = {}): Proto {
  const n = new Proto();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, `${op}_${outputs[0]}`);
  n.string(4, op);
  for (const [name, value] of Object.entries(attrs)) n.message(5, new Proto().string(1, name).int(3, value).int(20, ATTR_INT));
  return n;
}

// --- The model -----------------------------------------------------------------------------------

/** A seeded generator (mulberry32), so that every run writes the same weights. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The vocabulary of a tiny model: the special tokens, then the given entries, without repeats. */
export function tinyBertVocab(words: string[]): string[] {
  return [...new Set([...TINY_BERT_SPECIAL_TOKENS, ...words])];
}

/** The bytes of model.onnx for a tiny BERT-shaped graph with the given head. */
export function tinyBertOnnx(options: TinyBertOptions): Buffer {
  const vocab = tinyBertVocab(options.vocab);
  const index = new Map(vocab.map((t, i) => [t, i]));
  const hidden = options.hidden ?? 8;
  const withTypes = options.tokenTypeIds ?? true;
  const next = random(options.seed ?? 1);
  const weights = (n: number, scale = 0.1) => Float32Array.from({ length: n }, () => (next() * 2 - 1) * scale);
  const nodes: Proto[] = [];
  const initializers: Proto[] = [];
  const outputs: Proto[] = [];

  initializers.push(tensor('word_embeddings', [vocab.length, hidden], weights(vocab.length * hidden, 1)));
  initializers.push(tensor('dense', [hidden, hidden], weights(hidden * hidden, 0.5)));
  initializers.push(tensor('axis_1', [1], BigInt64Array.of(1n)));
  initializers.push(tensor('axis_2', [1], BigInt64Array.of(2n)));
  nodes.push(node('Gather', ['word_embeddings', 'input_ids'], ['embedded']));
  if (withTypes) {
    initializers.push(tensor('token_type_embeddings', [2, hidden], weights(2 * hidden, 1)));
    nodes.push(node('Gather', ['token_type_embeddings', 'token_type_ids'], ['typed']));
    nodes.push(node('Add', ['embedded', 'typed'], ['summed']));
  } else {
    nodes.push(node('Identity', ['embedded'], ['summed']));
  }
  nodes.push(node('MatMul', ['summed', 'dense'], ['projected']));
  nodes.push(node('Tanh', ['projected'], ['activated']));
  nodes.push(node('Cast', ['attention_mask'], ['mask_float'], { to: FLOAT }));
  nodes.push(node('Unsqueeze', ['mask_float', 'axis_2'], ['mask_3d']));
  const hiddenState = options.head === 'encoder' ? 'last_hidden_state' : 'masked';
  nodes.push(node('Mul', ['activated', 'mask_3d'], [hiddenState]));

  const planted = (width: number, values: Record<string, number[]>): Float32Array => {
    const table = new Float32Array(vocab.length * width);
    for (const [token, row] of Object.entries(values)) {
      const i = index.get(token);
      if (i === undefined) throw new Error(`planted token ${token} is not in the vocabulary`);
      table.set(row, i * width);
    }
    return table;
  };

  switch (options.head) {
    case 'encoder':
      outputs.push(valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden]));
      break;
    case 'qa':
      initializers.push(tensor('qa_outputs', [hidden, 2], weights(hidden * 2, 0.5)));
      initializers.push(tensor('qa_planted', [vocab.length, 2], planted(2, options.plantedSpans ?? {})));
      nodes.push(node('MatMul', [hiddenState, 'qa_outputs'], ['qa_logits']));
      nodes.push(node('Gather', ['qa_planted', 'input_ids'], ['qa_bias']));
      nodes.push(node('Add', ['qa_logits', 'qa_bias'], ['span_logits']));
      nodes.push(node('Split', ['span_logits'], ['start_3d', 'end_3d'], { axis: 2 }));
      nodes.push(node('Squeeze', ['start_3d', 'axis_2'], ['start_logits']));
      nodes.push(node('Squeeze', ['end_3d', 'axis_2'], ['end_logits']));
      outputs.push(valueInfo('start_logits', FLOAT, ['batch', 'sequence']));
      outputs.push(valueInfo('end_logits', FLOAT, ['batch', 'sequence']));
      break;
    case 'cross-encoder': {
      const relevance = Object.fromEntries(Object.entries(options.plantedRelevance ?? {}).map(([t, v]) => [t, [v]]));
      initializers.push(tensor('classifier', [hidden, 1], weights(hidden, 0.5)));
      initializers.push(tensor('relevance', [vocab.length, 1], planted(1, relevance)));
      nodes.push(node('MatMul', [hiddenState, 'classifier'], ['token_scores']));
      nodes.push(node('Gather', ['relevance', 'input_ids'], ['token_relevance']));
      nodes.push(node('Mul', ['token_relevance', 'mask_3d'], ['masked_relevance']));
      nodes.push(node('Add', ['token_scores', 'masked_relevance'], ['scores']));
      // Sums over the sequence: padding adds nothing, so a passage scores the same in any batch.
      nodes.push(node('ReduceSum', ['scores', 'axis_1'], ['logits'], { keepdims: 0 }));
      outputs.push(valueInfo('logits', FLOAT, ['batch', 1]));
      break;
    }
  }

  const graph = new Proto();
  for (const n of nodes) graph.message(1, n);
  graph.string(2, `tiny-bert-${options.head}`);
  for (const t of initializers) graph.message(5, t);
  const inputs = ['input_ids', 'attention_mask', ...(withTypes ? ['token_type_ids'] : [])];
  for (const name of inputs) graph.message(11, valueInfo(name, INT64, ['batch', 'sequence']));
  for (const o of outputs) graph.message(12, o);

  return new Proto()
    .int(1, 8) // ir_version
    .string(2, 'docintel-testing')
    .message(7, graph)
    .message(8, new Proto().string(1, '').int(2, 13)) // opset_import: the default domain, opset 13
    .finish();
}

/** tokenizer.json of a BERT WordPiece tokenizer over the given vocabulary (as Hugging Face writes it). */
export function tinyBertTokenizerJson(words: string[], lowercase = true): Record<string, unknown> {
  const vocab = tinyBertVocab(words);
  const id = (t: string) => vocab.indexOf(t);
  const special = (content: string) => ({
    id: id(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const token = (name: string, typeId: number) => ({ SpecialToken: { id: name, type_id: typeId } });
  const sequence = (name: string, typeId: number) => ({ Sequence: { id: name, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_BERT_SPECIAL_TOKENS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [token('[CLS]', 0), sequence('A', 0), token('[SEP]', 0)],
      pair: [token('[CLS]', 0), sequence('A', 0), token('[SEP]', 0), sequence('B', 1), token('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/** Writes model.onnx, tokenizer.json and config.json of a tiny model into `dir` (created if needed) and returns `dir`. */
export function writeTinyBertModel(dir: string, options: TinyBertOptions): string {
  mkdirSync(dir, { recursive: true });
  const vocab = tinyBertVocab(options.vocab);
  writeFileSync(join(dir, 'model.onnx'), tinyBertOnnx(options));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tinyBertTokenizerJson(options.vocab, options.lowercase ?? true)));
  const config = {
    model_type: options.tokenTypeIds === false ? 'distilbert' : 'bert',
    hidden_size: options.hidden ?? 8,
    max_position_embeddings: options.maxPositions ?? 512,
    vocab_size: vocab.length,
    type_vocab_size: 2,
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  return dir;
}

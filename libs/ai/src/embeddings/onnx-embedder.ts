import { bertFeeds } from '../onnx/batch';
import { readModelFolder, readOptionalJson, type ModelFolder } from '../onnx/model-folder';
import { OnnxError } from '../onnx/onnx-error';
import { OnnxSession, type Float32Output } from '../onnx/onnx-session';
import { WordPieceTokenizer } from '../onnx/wordpiece-tokenizer';
import { normalize } from '../vectors/vector-math';
import { chunk, EmbeddingError, type Embedder } from './embedder';

export const ONNX_POOLING_MODES = ['mean', 'cls'] as const;
export type OnnxPooling = (typeof ONNX_POOLING_MODES)[number];

export interface OnnxEmbedderOptions {
  /** Folder with tokenizer.json, config.json and model.onnx (a sentence encoder exported to ONNX). */
  modelDir: string;
  /** How token vectors become one: by default what the folder's 1_Pooling/config.json says, else mean. */
  pooling?: OnnxPooling;
  /** Texts per model call. */
  batchSize: number;
  /** Texts are cut to this many characters before tokenising. */
  maxChars: number;
  /** ONNX Runtime threads for one run. */
  threads: number;
  /** Calls that may wait for the model at once. */
  maxQueue: number;
  /** Tokens per text, special tokens included: by default sentence_bert_config.json's max_seq_length, else the model's positions (at most 512). */
  maxTokens?: number;
}

/** Output names of sentence encoders exported by optimum (transformers or sentence-transformers). */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];
const POOLED_OUTPUT = 'sentence_embedding';

/** sentence-transformers writes the pooling it was trained with into 1_Pooling/config.json. */
function poolingOf(folder: ModelFolder): OnnxPooling {
  const config = readOptionalJson(folder.dir, '1_Pooling/config.json');
  return config?.pooling_mode_cls_token === true ? 'cls' : 'mean';
}

function maxTokensOf(folder: ModelFolder): number {
  const st = readOptionalJson(folder.dir, 'sentence_bert_config.json');
  const fromSt = Number.isInteger(st?.max_seq_length) ? (st?.max_seq_length as number) : undefined;
  return Math.min(fromSt ?? 512, folder.maxPositions ?? 512);
}

/**
 * A sentence encoder (all-MiniLM-L6-v2, bge-small-en-v1.5, ...) exported to ONNX, read from a folder
 * the operator mounts, run by ONNX Runtime in a worker thread. Token vectors are pooled (mean over the
 * attention mask, or the [CLS] vector) and L2-normalised. The folder is checked when the embedder is
 * built; the model loads on the first embed().
 */
export class OnnxEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  readonly pooling: OnnxPooling;
  private readonly folder: ModelFolder;
  private readonly tokenizer: WordPieceTokenizer;
  private readonly session: OnnxSession;
  private readonly maxTokens: number;

  constructor(private readonly options: OnnxEmbedderOptions) {
    this.folder = readModelFolder(options.modelDir);
    if (!this.folder.hiddenSize) {
      throw new OnnxError('MODEL_FOLDER_INVALID', `config.json in ${this.folder.dir} names no hidden_size: the length of the vectors`);
    }
    this.dimensions = this.folder.hiddenSize;
    this.tokenizer = WordPieceTokenizer.fromJson(this.folder.tokenizerJson, this.folder.tokenizerPath);
    this.pooling = options.pooling ?? poolingOf(this.folder);
    this.maxTokens = options.maxTokens ?? maxTokensOf(this.folder);
    // The fingerprint follows the weights, so that vectors of a replaced model are never compared with the old ones.
    this.model = `local-onnx:${this.folder.name}@${this.folder.fingerprint}`;
    this.session = new OnnxSession({ modelPath: this.folder.modelPath, threads: options.threads, maxQueue: options.maxQueue });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    try {
      const { inputNames, outputNames } = await this.session.info();
      const output = [...TOKEN_OUTPUTS, POOLED_OUTPUT].find((name) => outputNames.includes(name));
      if (!output || !inputNames.includes('input_ids')) {
        throw new OnnxError(
          'MODEL_LOAD_FAILED',
          `model.onnx in ${this.folder.dir} is not a sentence encoder: it needs the input input_ids and one of the outputs ` +
            `${[...TOKEN_OUTPUTS, POOLED_OUTPUT].join(', ')}; it has inputs ${inputNames.join(', ')} and outputs ${outputNames.join(', ')}`,
        );
      }
      for (const batch of chunk(texts, this.options.batchSize)) {
        const sequences = batch.map((t) =>
          this.tokenizer.encodeSingle(this.tokenizer.tokenize(t.slice(0, this.options.maxChars)), this.maxTokens),
        );
        const { feeds } = bertFeeds(sequences, this.tokenizer.padId, inputNames);
        const result = await this.session.run(feeds, [output]);
        const lengths = sequences.map((s) => s.ids.length);
        out.push(
          ...(output === POOLED_OUTPUT ? rows(result[output]) : pool(result[output], lengths, this.pooling)).map((v) => normalize(v)),
        );
      }
    } catch (err) {
      if (err instanceof EmbeddingError) throw err;
      throw new EmbeddingError(`The local ONNX embedding model ${this.folder.name} failed: ${(err as Error).message}`, { cause: err });
    }
    for (const v of out) {
      if (v.length !== this.dimensions) {
        throw new EmbeddingError(
          `The local ONNX model ${this.folder.name} returned ${v.length} dimensions; config.json says ${this.dimensions}`,
        );
      }
    }
    return out;
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/** The rows of a [batch, hidden] output. */
function rows(output: Float32Output): Float32Array[] {
  const [batch, hidden] = output.dims;
  return Array.from({ length: batch }, (_, r) => output.data.slice(r * hidden, (r + 1) * hidden));
}

/** Pools [batch, seq, hidden] token vectors: the mean over each row's real tokens (special tokens included, as sentence-transformers does), or the first ([CLS]). */
function pool(output: Float32Output, lengths: number[], mode: OnnxPooling): Float32Array[] {
  const [, seq, hidden] = output.dims;
  return lengths.map((length, r) => {
    const base = r * seq * hidden;
    if (mode === 'cls') return output.data.slice(base, base + hidden);
    const sum = new Float32Array(hidden);
    for (let t = 0; t < length; t++) for (let h = 0; h < hidden; h++) sum[h] += output.data[base + t * hidden + h];
    for (let h = 0; h < hidden; h++) sum[h] /= length;
    return sum;
  });
}

import { bertFeeds, OnnxError, OnnxSession, readModelFolder, WordPieceTokenizer, type ModelFolder } from '@docintel/ai';

/**
 * Reorders retrieved passages by how well each answers a query. The job engine retrieves broadly
 * (BM25 and vectors, fused), asks the reranker, and gives the reader the best passages first.
 */
export interface PassageReranker {
  /** e.g. "local-onnx:ms-marco-MiniLM-L-6-v2". */
  readonly name: string;
  /** One relevance score per passage, in the order given; higher is more relevant. Scores compare only within one call. */
  rerank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<number[]>;
  /** Releases the model; a later rerank() starts it again. */
  close(): Promise<void>;
}

export interface OnnxRerankerOptions {
  /** Folder with tokenizer.json, config.json and model.onnx: a cross-encoder (sequence classification with one logit, or two). */
  modelDir: string;
  threads: number;
  maxQueue: number;
  /** Tokens of one (query, passage) input; the passage is cut to fit. Default 512, at most the model's positions. */
  maxSeqLength?: number;
  /** Longest query, in tokens. Default 64. */
  maxQueryTokens?: number;
  /** Pairs per model run. Default 8. */
  batchSize?: number;
}

const LOGITS = 'logits';

/**
 * A cross-encoder (cross-encoder/ms-marco-MiniLM-L-6-v2, BAAI/bge-reranker-base with a BERT tokenizer,
 * ...) exported to ONNX: [CLS] query [SEP] passage [SEP] -> a relevance logit. With two logits
 * (not relevant, relevant) the score is their difference, the log-odds of relevant.
 */
export class OnnxReranker implements PassageReranker {
  readonly name: string;
  private readonly folder: ModelFolder;
  private readonly tokenizer: WordPieceTokenizer;
  private readonly session: OnnxSession;
  private readonly maxSeqLength: number;
  private readonly maxQueryTokens: number;
  private readonly batchSize: number;

  constructor(options: OnnxRerankerOptions) {
    this.folder = readModelFolder(options.modelDir);
    this.tokenizer = WordPieceTokenizer.fromJson(this.folder.tokenizerJson, this.folder.tokenizerPath);
    this.session = new OnnxSession({ modelPath: this.folder.modelPath, threads: options.threads, maxQueue: options.maxQueue });
    this.name = `local-onnx:${this.folder.name}`;
    this.maxSeqLength = Math.min(options.maxSeqLength ?? 512, this.folder.maxPositions ?? Number.MAX_SAFE_INTEGER);
    this.maxQueryTokens = Math.min(options.maxQueryTokens ?? 64, Math.floor(this.maxSeqLength / 2));
    this.batchSize = options.batchSize ?? 8;
  }

  async rerank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<number[]> {
    signal?.throwIfAborted();
    if (passages.length === 0) return [];
    const { inputNames, outputNames } = await this.session.info();
    if (!inputNames.includes('input_ids') || !outputNames.includes(LOGITS)) {
      throw new OnnxError(
        'MODEL_LOAD_FAILED',
        `model.onnx in ${this.folder.dir} is not a cross-encoder: it needs the input input_ids and the output ${LOGITS} ` +
          `(it has inputs ${inputNames.join(', ')} and outputs ${outputNames.join(', ')})`,
      );
    }
    const queryIds = this.tokenizer.tokenize(query).ids.slice(0, this.maxQueryTokens);
    const room = this.maxSeqLength - queryIds.length - 3;
    const scores: number[] = [];
    for (let i = 0; i < passages.length; i += this.batchSize) {
      signal?.throwIfAborted();
      const sequences = passages
        .slice(i, i + this.batchSize)
        .map((p) => this.tokenizer.encodePair(queryIds, this.tokenizer.tokenize(p).ids.slice(0, room)));
      const { feeds } = bertFeeds(sequences, this.tokenizer.padId, inputNames);
      const { [LOGITS]: logits } = await this.session.run(feeds, [LOGITS]);
      const width = logits.dims[1] ?? 1;
      if (logits.dims.length !== 2 || (width !== 1 && width !== 2)) {
        throw new OnnxError(
          'INFERENCE_FAILED',
          `model.onnx in ${this.folder.dir} gives logits of shape [${logits.dims.join(', ')}]; a cross-encoder gives [batch, 1] or [batch, 2]`,
        );
      }
      for (let r = 0; r < sequences.length; r++) {
        scores.push(width === 1 ? logits.data[r] : logits.data[r * 2 + 1] - logits.data[r * 2]);
      }
    }
    return scores;
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

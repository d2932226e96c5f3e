import type { AnswerTypeDto } from '@docintel/contracts';
import {
  bertFeeds,
  OnnxError,
  OnnxSession,
  readModelFolder,
  rowOf,
  WordPieceTokenizer,
  type EncodedSequence,
  type ModelFolder,
  type TokenizedText,
} from '@docintel/ai';
import { notFound, type Citation, type Reader, type ReaderAnswer, type ReaderPassage, type ReaderQuestion } from '../reader';
import { toDataValue } from '../typed';
import { decodeWindow, tokenWindows, type SpanCandidate, type TokenWindow } from './span-decoding';

export interface OnnxReaderOptions {
  /** Folder with tokenizer.json, config.json and model.onnx: a SQuAD-style extractive QA model. */
  modelDir: string;
  /** ONNX Runtime threads for one run. */
  threads: number;
  /** Runs that may wait for the model at once. */
  maxQueue: number;
  /** Tokens of one model input: [CLS] question [SEP] passage window [SEP]. Default 384, at most the model's positions. */
  maxSeqLength?: number;
  /** Tokens consecutive windows of a long passage share. Default 128. */
  docStride?: number;
  /** Longest answer, in tokens. Default 30. */
  maxAnswerTokens?: number;
  /** Longest question, in tokens; the rest is cut. Default 64. */
  maxQuestionTokens?: number;
  /** Below this confidence (0..1) the reader says it found nothing. Default 0.1. */
  minConfidence?: number;
  /** Windows per model run. Default 8. */
  batchSize?: number;
  /** Values of a multi-valued answer, at most. Default 5. */
  maxValues?: number;
}

const START = 'start_logits';
const END = 'end_logits';

/** One window of one passage, as a model input. */
interface Window extends TokenWindow {
  passage: number;
  sequence: EncodedSequence;
}

/** A span found in a passage, in characters. */
interface Found {
  passage: number;
  start: number;
  end: number;
  text: string;
  probability: number;
}

/**
 * Extractive question answering with a SQuAD-style model (a BERT, DistilBERT or MiniLM fine-tuned on
 * SQuAD, exported to ONNX) from a folder the operator mounts. Each passage is read in windows of
 * maxSeqLength tokens beside the question (overlapping by docStride); the model gives start and end
 * logits per token; the best span inside the passage (start <= end, at most maxAnswerTokens) is
 * mapped back to the passage's characters for the citation. It answers "not found" when no span
 * scores above the window's [CLS] ("no answer") score or reaches minConfidence.
 */
export class OnnxReader implements Reader {
  readonly name: string;
  private readonly folder: ModelFolder;
  private readonly tokenizer: WordPieceTokenizer;
  private readonly session: OnnxSession;
  private readonly maxSeqLength: number;
  private readonly docStride: number;
  private readonly maxAnswerTokens: number;
  private readonly maxQuestionTokens: number;
  private readonly minConfidence: number;
  private readonly batchSize: number;
  private readonly maxValues: number;

  constructor(options: OnnxReaderOptions) {
    this.folder = readModelFolder(options.modelDir);
    this.tokenizer = WordPieceTokenizer.fromJson(this.folder.tokenizerJson, this.folder.tokenizerPath);
    this.session = new OnnxSession({ modelPath: this.folder.modelPath, threads: options.threads, maxQueue: options.maxQueue });
    this.name = `local-onnx:${this.folder.name}`;
    this.maxSeqLength = Math.min(options.maxSeqLength ?? 384, this.folder.maxPositions ?? Number.MAX_SAFE_INTEGER);
    this.docStride = options.docStride ?? 128;
    this.maxAnswerTokens = options.maxAnswerTokens ?? 30;
    this.maxQuestionTokens = Math.min(options.maxQuestionTokens ?? 64, Math.floor(this.maxSeqLength / 2));
    this.minConfidence = options.minConfidence ?? 0.1;
    this.batchSize = options.batchSize ?? 8;
    this.maxValues = options.maxValues ?? 5;
  }

  async answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer> {
    signal?.throwIfAborted();
    if (passages.length === 0) return notFound('No passages were retrieved for this question, so there was nothing to read.');
    const { inputNames } = await this.checkGraph();
    const questionIds = this.tokenizer.tokenize(question.question).ids.slice(0, this.maxQuestionTokens);
    const passageOffset = questionIds.length + 2;
    const budget = this.maxSeqLength - questionIds.length - 3;
    const tokens = passages.map((p) => this.tokenizer.tokenize(p.text));
    const windows: Window[] = tokens.flatMap((t, passage) =>
      t.ids.length === 0
        ? []
        : tokenWindows(t.ids.length, budget, this.docStride).map((w) => ({
            ...w,
            passage,
            sequence: this.tokenizer.encodePair(questionIds, t.ids.slice(w.from, w.to)),
          })),
    );
    if (windows.length === 0) return notFound('The retrieved passages hold no text the model could read.');

    const found: Found[] = [];
    let bestRejected: Found | undefined;
    for (let i = 0; i < windows.length; i += this.batchSize) {
      signal?.throwIfAborted();
      const batch = windows.slice(i, i + this.batchSize);
      const { feeds } = bertFeeds(
        batch.map((w) => w.sequence),
        this.tokenizer.padId,
        inputNames,
      );
      const out = await this.session.run(feeds, [START, END]);
      batch.forEach((w, row) => {
        const decoded = decodeWindow(rowOf(out[START], row), rowOf(out[END], row), {
          passageOffset,
          window: w,
          maxAnswerTokens: this.maxAnswerTokens,
        });
        for (const span of decoded.spans) {
          const f = this.toFound(span, w.passage, tokens[w.passage], passages[w.passage]);
          // The SQuAD 2.0 rule: a span must beat this window's "no answer" score; and it must be confident enough.
          if (span.score > decoded.nullScore && span.probability >= this.minConfidence) found.push(f);
          else if (!bestRejected || f.probability > bestRejected.probability) bestRejected = f;
        }
      });
    }
    signal?.throwIfAborted();
    return this.choose(question.answerType, found, passages, bestRejected);
  }

  /** Releases the model and its worker thread; a later answer() starts them again. */
  close(): Promise<void> {
    return this.session.close();
  }

  private async checkGraph(): Promise<{ inputNames: string[] }> {
    const { inputNames, outputNames } = await this.session.info();
    const missing = [
      ...['input_ids', 'attention_mask'].filter((n) => !inputNames.includes(n)),
      ...[START, END].filter((n) => !outputNames.includes(n)),
    ];
    if (missing.length) {
      throw new OnnxError(
        'MODEL_LOAD_FAILED',
        `model.onnx in ${this.folder.dir} is not an extractive QA model: it lacks ${missing.join(', ')} ` +
          `(it has inputs ${inputNames.join(', ')} and outputs ${outputNames.join(', ')})`,
      );
    }
    return { inputNames };
  }

  private toFound(span: SpanCandidate, passage: number, tokens: TokenizedText, p: ReaderPassage): Found {
    const start = tokens.offsets[span.startToken][0];
    const end = tokens.offsets[span.endToken][1];
    return { passage, start, end, text: p.text.slice(start, end), probability: span.probability };
  }

  private choose(type: AnswerTypeDto, found: Found[], passages: ReaderPassage[], bestRejected?: Found): ReaderAnswer {
    // The same span is found again in overlapping windows; keep its best reading.
    const unique = new Map<string, Found>();
    for (const f of found.sort((a, b) => b.probability - a.probability)) {
      const key = `${f.passage}:${f.start}:${f.end}`;
      if (!unique.has(key)) unique.set(key, f);
    }
    const ranked = [...unique.values()];
    if (ranked.length === 0) {
      const best = bestRejected
        ? ` Its best guess, "${bestRejected.text}" (confidence ${bestRejected.probability.toFixed(2)}), was below its "no answer" score or the ${this.minConfidence} threshold.`
        : '';
      return notFound(`The local model ${this.folder.name} found no answer in ${passages.length} passage(s).${best}`);
    }
    // Prefer spans that read as the requested type (a date for DATE): the best span is not always one.
    const typed = ranked.map((f) => ({ f, typed: toDataValue(f.text, type) }));
    const readable = typed.filter((t) => t.typed.value !== null);
    const pool = readable.length ? readable : typed;
    const chosen = type.multiValued ? this.distinct(pool.map((t) => t.f)) : [pool[0].f];
    const rawValue = chosen.map((f) => f.text).join('; ');
    const value = type.multiValued ? toDataValue(rawValue, type) : pool[0].typed;
    const citations: Citation[] = chosen.map((f) => ({ passageId: passages[f.passage].id, start: f.start, end: f.end }));
    const first = passages[chosen[0].passage];
    const section = first.headings.length ? `, section "${first.headings[first.headings.length - 1]}"` : '';
    const unreadable = value.value === null ? ` It could not be read as ${type.dataType}${value.problem ? `: ${value.problem}` : ''}.` : '';
    return {
      found: true,
      rawValue,
      value: value.value,
      confidence: chosen[0].probability,
      explanation: `Read from ${first.fileName}${section} by the local model ${this.folder.name} (confidence ${chosen[0].probability.toFixed(2)}).${unreadable}`,
      citations,
    };
  }

  /** Values of a multi-valued answer: best first, no overlapping spans, no repeated text. */
  private distinct(ranked: Found[]): Found[] {
    const chosen: Found[] = [];
    for (const f of ranked) {
      if (chosen.length >= this.maxValues) break;
      const overlaps = chosen.some((c) => c.passage === f.passage && c.start < f.end && f.start < c.end);
      const repeated = chosen.some((c) => c.text.toLowerCase() === f.text.toLowerCase());
      if (!overlaps && !repeated) chosen.push(f);
    }
    return chosen;
  }
}

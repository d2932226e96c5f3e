import { Tokenizer } from '@huggingface/tokenizers';
import { OnnxError } from './onnx-error';

/** Tokens of a text and, for each, the characters it was read from: [start, end) in UTF-16 code units of the original text. */
export interface TokenizedText {
  ids: number[];
  offsets: Array<[number, number]>;
}

/** Model input for one sequence, special tokens included. */
export interface EncodedSequence {
  ids: number[];
  typeIds: number[];
}

interface WordPieces {
  ids: number[];
  /** Characters of the word each piece covers, relative to the word's start. */
  spans: Array<[number, number]>;
}

const WORD_CACHE_LIMIT = 50_000;

/** BERT's punctuation: every ASCII non-letter, non-digit symbol plus Unicode's P categories. */
const isPunctuation = (cp: number): boolean =>
  (cp >= 33 && cp <= 47) ||
  (cp >= 58 && cp <= 64) ||
  (cp >= 91 && cp <= 96) ||
  (cp >= 123 && cp <= 126) ||
  /\p{P}/u.test(String.fromCodePoint(cp));

/** The CJK ideographs BERT splits one by one. */
const isCjk = (cp: number): boolean =>
  (cp >= 0x4e00 && cp <= 0x9fff) ||
  (cp >= 0x3400 && cp <= 0x4dbf) ||
  (cp >= 0x20000 && cp <= 0x2a6df) ||
  (cp >= 0x2a700 && cp <= 0x2b73f) ||
  (cp >= 0x2b740 && cp <= 0x2b81f) ||
  (cp >= 0x2b820 && cp <= 0x2ceaf) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0x2f800 && cp <= 0x2fa1f);

/** Whitespace and control characters separate words (BERT's clean_text drops the controls). */
const isSeparator = (ch: string): boolean => /[\s\p{Cc}\p{Cf}\uFFFD]/u.test(ch);

function specialId(json: Record<string, unknown>, vocab: Map<string, number>, role: 'cls' | 'sep', fallback: string): string {
  // BertProcessing: { cls: ["[CLS]", 101], sep: ["[SEP]", 102] }; TemplateProcessing names them in its template.
  const post = json.post_processor as Record<string, unknown> | null | undefined;
  const pair = post?.[role];
  if (Array.isArray(pair) && typeof pair[0] === 'string') return pair[0];
  const single = post?.single;
  if (Array.isArray(single)) {
    const specials = single
      .map((p) => (p as { SpecialToken?: { id?: string } }).SpecialToken?.id)
      .filter((id): id is string => typeof id === 'string');
    const name = role === 'cls' ? specials[0] : specials[specials.length - 1];
    if (name && vocab.has(name)) return name;
  }
  return fallback;
}

/**
 * A BERT-style (WordPiece) tokenizer read from a Hugging Face tokenizer.json, with character offsets.
 *
 * @huggingface/tokenizers (pure JavaScript, reads tokenizer.json without any network) does the
 * normalisation (lower-casing, accents, as tokenizer.json configures them) and WordPiece, but it returns
 * no offsets, which extractive QA needs to cite the exact characters. So words are split here, with
 * their positions in the original text, the way BERT's pre-tokenizer splits them (whitespace,
 * punctuation, CJK ideographs), and the library tokenises one word at a time; pieces are mapped back
 * into the word through the normaliser, character by character. For WordPiece the ids are the same as
 * tokenising the whole text at once, since WordPiece never crosses a word boundary.
 */
export class WordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;
  private readonly tokenizer: Tokenizer;
  private readonly prefix: string;
  private readonly cache = new Map<string, WordPieces>();

  private constructor(json: Record<string, unknown>, file: string) {
    const model = json.model as Record<string, unknown> | undefined;
    if (!model || model.type !== 'WordPiece' || typeof model.vocab !== 'object' || model.vocab === null) {
      const type = typeof model?.type === 'string' ? model.type : 'none';
      throw new OnnxError(
        'MODEL_FOLDER_INVALID',
        `${file} must describe a WordPiece (BERT-style) tokenizer; its model type is ${type}. ` +
          'BERT, DistilBERT, MiniLM, BGE and MS MARCO cross-encoders use WordPiece.',
      );
    }
    try {
      this.tokenizer = new Tokenizer(json, {});
    } catch (err) {
      throw new OnnxError('MODEL_FOLDER_INVALID', `${file} could not be read as a tokenizer: ${(err as Error).message}`, { cause: err });
    }
    const vocab = new Map(Object.entries(model.vocab as Record<string, number>));
    this.prefix = typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##';
    const unk = typeof model.unk_token === 'string' ? model.unk_token : '[UNK]';
    const id = (token: string, what: string): number => {
      const found = vocab.get(token);
      if (found === undefined) throw new OnnxError('MODEL_FOLDER_INVALID', `${file} has no ${what} token ${token} in its vocabulary`);
      return found;
    };
    this.clsId = id(specialId(json, vocab, 'cls', '[CLS]'), 'classification');
    this.sepId = id(specialId(json, vocab, 'sep', '[SEP]'), 'separator');
    this.unkId = id(unk, 'unknown-word');
    const padding = json.padding as { pad_id?: unknown } | null | undefined;
    this.padId = typeof padding?.pad_id === 'number' ? padding.pad_id : (vocab.get('[PAD]') ?? 0);
  }

  /** Builds the tokenizer from tokenizer.json's content; `file` names it in errors. Throws OnnxError MODEL_FOLDER_INVALID. */
  static fromJson(json: Record<string, unknown>, file = 'tokenizer.json'): WordPieceTokenizer {
    return new WordPieceTokenizer(json, file);
  }

  /** The tokens of a text, without special tokens, each with the characters it covers. */
  tokenize(text: string): TokenizedText {
    const ids: number[] = [];
    const offsets: Array<[number, number]> = [];
    for (const [start, end] of this.words(text)) {
      const pieces = this.pieces(text.slice(start, end));
      for (let i = 0; i < pieces.ids.length; i++) {
        ids.push(pieces.ids[i]);
        offsets.push([start + pieces.spans[i][0], start + pieces.spans[i][1]]);
      }
    }
    return { ids, offsets };
  }

  /** [CLS] text [SEP], the text cut to fit maxTokens. */
  encodeSingle(tokens: TokenizedText, maxTokens: number): EncodedSequence {
    const body = tokens.ids.slice(0, Math.max(0, maxTokens - 2));
    return { ids: [this.clsId, ...body, this.sepId], typeIds: new Array<number>(body.length + 2).fill(0) };
  }

  /** [CLS] a [SEP] b [SEP], token types 0 for the first part and 1 for the second; no truncation (the caller windows b). */
  encodePair(a: number[], b: number[]): EncodedSequence {
    const ids = [this.clsId, ...a, this.sepId, ...b, this.sepId];
    const typeIds = new Array<number>(ids.length).fill(0).fill(1, a.length + 2);
    return { ids, typeIds };
  }

  /** Word boundaries as BERT's pre-tokenizer draws them: [start, end) pairs. */
  private *words(text: string): Generator<[number, number]> {
    let start = -1;
    let i = 0;
    while (i < text.length) {
      const cp = text.codePointAt(i) as number;
      const width = cp > 0xffff ? 2 : 1;
      const ch = text.slice(i, i + width);
      if (isSeparator(ch)) {
        if (start >= 0) yield [start, i];
        start = -1;
      } else if (isPunctuation(cp) || isCjk(cp)) {
        if (start >= 0) yield [start, i];
        start = -1;
        yield [i, i + width];
      } else if (start < 0) {
        start = i;
      }
      i += width;
    }
    if (start >= 0) yield [start, text.length];
  }

  private pieces(word: string): WordPieces {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const encoding = this.tokenizer.encode(word, { add_special_tokens: false });
    const pieces: WordPieces = { ids: encoding.ids, spans: this.spans(word, encoding.ids, encoding.tokens) };
    if (this.cache.size >= WORD_CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, pieces);
    return pieces;
  }

  /**
   * Where each piece lies in the word. Piece lengths are measured in the normalised word; when
   * normalisation changed the length (a decomposed accent, a ligature), the boundaries are carried back
   * through the normalised length of each original character. An unknown word, or anything that does
   * not add up, gives every piece the whole word.
   */
  private spans(word: string, ids: number[], tokens: string[]): Array<[number, number]> {
    const whole = ids.map((): [number, number] => [0, word.length]);
    if (ids.length === 0 || ids.includes(this.unkId)) return whole;
    const lengths = tokens.map((t, i) => (i > 0 && t.startsWith(this.prefix) ? t.length - this.prefix.length : t.length));
    const normalizer = this.tokenizer.normalizer;
    const normalize = (s: string): string => (normalizer ? normalizer.normalize(s) : s).replace(/\s/g, '');
    const total = lengths.reduce((a, b) => a + b, 0);
    if (total === word.length && normalize(word).length === word.length) return this.cut(lengths, (b) => b);
    // Cumulative normalised length after each original UTF-16 unit (the second half of a surrogate pair adds 0).
    const cumulative: number[] = [];
    let sum = 0;
    for (let i = 0; i < word.length;) {
      const width = (word.codePointAt(i) as number) > 0xffff ? 2 : 1;
      sum += normalize(word.slice(i, i + width)).length;
      for (let k = 0; k < width; k++) cumulative.push(sum);
      i += width;
    }
    if (sum !== total) return whole;
    // A boundary after b normalised characters falls after every original unit whose cumulative length is at most b,
    // so that a combining mark stays with the letter before it.
    return this.cut(lengths, (b) => {
      if (b === 0) return 0;
      const after = cumulative.findIndex((c) => c > b);
      return after < 0 ? word.length : after;
    });
  }

  private cut(lengths: number[], toOriginal: (normalisedBoundary: number) => number): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    let at = 0;
    for (const length of lengths) {
      spans.push([toOriginal(at), toOriginal(at + length)]);
      at += length;
    }
    return spans;
  }
}

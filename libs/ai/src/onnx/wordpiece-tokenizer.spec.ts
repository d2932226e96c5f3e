import { tinyBertTokenizerJson } from '@docintel/testing';
import { OnnxError } from './onnx-error';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

const WORDS = [
  'the',
  'capital',
  'of',
  'france',
  'is',
  'paris',
  'new',
  'york',
  'run',
  '##ning',
  'un',
  '##able',
  'cafe',
  '.',
  ',',
  '?',
  '$',
  '中',
  '文',
  'naive',
];

describe('WordPieceTokenizer', () => {
  const tokenizer = WordPieceTokenizer.fromJson(tinyBertTokenizerJson(WORDS));
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...WORDS];
  const tokensOf = (text: string) => tokenizer.tokenize(text).ids.map((id) => vocab[id]);
  const piecesOf = (text: string) => tokenizer.tokenize(text).offsets.map(([s, e]) => text.slice(s, e));

  it('splits words, punctuation and pieces as BERT does, lower-casing and stripping accents', () => {
    const text = 'Running, the  CAPITAL of France is Paris? Unable: Café $ naïve xyz';
    expect(tokensOf(text)).toEqual([
      'run',
      '##ning',
      ',',
      'the',
      'capital',
      'of',
      'france',
      'is',
      'paris',
      '?',
      'un',
      '##able',
      '[UNK]',
      'cafe',
      '$',
      'naive',
      '[UNK]',
    ]);
    // Each token maps back to the exact characters of the original text, case and accents kept.
    expect(piecesOf(text)).toEqual([
      'Run',
      'ning',
      ',',
      'the',
      'CAPITAL',
      'of',
      'France',
      'is',
      'Paris',
      '?',
      'Un',
      'able',
      ':',
      'Café',
      '$',
      'naïve',
      'xyz',
    ]);
  });

  it('maps pieces back through normalisation that changes the length (a decomposed accent)', () => {
    const text = 'Cafe\u0301 UNA\u0301BLE';
    expect(tokensOf(text)).toEqual(['cafe', 'un', '##able']);
    expect(piecesOf(text)).toEqual(['Cafe\u0301', 'UN', 'A\u0301BLE']);
  });

  it('isolates CJK ideographs and skips control characters', () => {
    const text = 'paris中文\u0000 new\tyork';
    expect(tokensOf(text)).toEqual(['paris', '中', '文', 'new', 'york']);
    expect(piecesOf(text)).toEqual(['paris', '中', '文', 'new', 'york']);
  });

  it('builds single and pair inputs with special tokens and token types', () => {
    const q = tokenizer.tokenize('capital of france?');
    const p = tokenizer.tokenize('paris is');
    expect(tokenizer.encodePair(q.ids, p.ids)).toEqual({
      ids: [tokenizer.clsId, ...q.ids, tokenizer.sepId, ...p.ids, tokenizer.sepId],
      typeIds: [0, 0, 0, 0, 0, 0, 1, 1, 1],
    });
    expect(tokenizer.encodeSingle(tokenizer.tokenize('the capital of france is paris'), 4)).toEqual({
      ids: [tokenizer.clsId, vocab.indexOf('the'), vocab.indexOf('capital'), tokenizer.sepId],
      typeIds: [0, 0, 0, 0],
    });
    expect(tokenizer.padId).toBe(0);
  });

  it('refuses a tokenizer that is not WordPiece, naming the file', () => {
    const bpe = { ...tinyBertTokenizerJson(WORDS), model: { type: 'BPE', vocab: {}, merges: [] } };
    expect(() => WordPieceTokenizer.fromJson(bpe, '/models/x/tokenizer.json')).toThrow(OnnxError);
    expect(() => WordPieceTokenizer.fromJson(bpe, '/models/x/tokenizer.json')).toThrow(
      /\/models\/x\/tokenizer.json must describe a WordPiece \(BERT-style\) tokenizer; its model type is BPE/,
    );
  });
});

import { confidenceBand, confidenceView, engineLabel } from './confidence';

describe('confidence bands', () => {
  it('puts 0.7 and above in high, below 0.5 in low, the rest in medium', () => {
    expect([1, 0.7, 0.69, 0.5, 0.49, 0].map(confidenceBand)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low']);
  });

  it('says the band in words with its percentage, and what to do for a screen reader', () => {
    expect(confidenceView(0.82)).toMatchObject({ band: 'high', label: 'High confidence', percent: '82%', color: 'teal' });
    const low = confidenceView(0.31);
    expect(low).toMatchObject({ band: 'low', label: 'Low confidence', percent: '31%', color: 'red' });
    expect(low.description).toBe('Low confidence (31%). The answer may well be wrong: check it against its source.');
    expect(confidenceView(0.5).description).toMatch(/^Medium confidence \(50%\)\. Check/);
  });

  it('clamps what is not a confidence', () => {
    expect(confidenceView(Number.NaN)).toMatchObject({ band: 'low', percent: '0%' });
    expect(confidenceView(1.4)).toMatchObject({ band: 'high', percent: '100%' });
  });
});

describe('engine names', () => {
  it('names the engines in words, keeping the model', () => {
    expect(engineLabel('builtin')).toBe('the built-in engine');
    expect(engineLabel('llm:qwen2.5-7b-instruct')).toBe('the language model qwen2.5-7b-instruct');
    expect(engineLabel('local-onnx:deberta-v3-squad2')).toBe('the local model deberta-v3-squad2');
    expect(engineLabel('something-else')).toBe('something-else');
  });
});

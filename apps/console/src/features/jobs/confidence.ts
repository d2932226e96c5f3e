/**
 * How sure an answer is, in words: a confidence (0..1) as a band a person can read at a glance.
 * Every engine reports 0..1, and a low-confidence answer must not look like a sure one. The bands
 * follow the built-in engine on the real-document evaluation (docs/benchmarks.md): it withholds
 * answers below 0.35 (0.5 for numbers and dates); of the answers it gives, about 7 in 10 below 0.7
 * and 8 in 10 above were right.
 */

export type ConfidenceBand = 'high' | 'medium' | 'low';

/** At or above: high. */
export const HIGH_CONFIDENCE = 0.7;
/** Below: low. */
export const LOW_CONFIDENCE = 0.5;

export interface ConfidenceView {
  band: ConfidenceBand;
  /** "High confidence": what the badge says (never the colour alone). */
  label: string;
  /** "82%". */
  percent: string;
  /** Mantine colour of the badge. */
  color: string;
  /** A sentence for a screen reader and the badge's title. */
  description: string;
}

const LABELS: Record<ConfidenceBand, { label: string; color: string; advice: string }> = {
  high: { label: 'High confidence', color: 'teal', advice: 'The answer is well supported by its source.' },
  medium: { label: 'Medium confidence', color: 'yellow', advice: 'Check the answer against its source.' },
  low: { label: 'Low confidence', color: 'red', advice: 'The answer may well be wrong: check it against its source.' },
};

export function confidenceBand(confidence: number): ConfidenceBand {
  if (confidence >= HIGH_CONFIDENCE) return 'high';
  if (confidence < LOW_CONFIDENCE) return 'low';
  return 'medium';
}

/** The band of a confidence with its words, percentage and colour; NaN and values out of 0..1 are clamped. */
export function confidenceView(confidence: number): ConfidenceView {
  const c = Number.isFinite(confidence) ? Math.max(0, Math.min(1, confidence)) : 0;
  const band = confidenceBand(c);
  const { label, color, advice } = LABELS[band];
  const percent = `${Math.round(c * 100)}%`;
  return { band, label, percent, color, description: `${label} (${percent}). ${advice}` };
}

/** The engine in words: "builtin" → "the built-in engine", "llm:gpt-4o" → "the language model gpt-4o", "local-onnx:deberta" → "the local model deberta". */
export function engineLabel(engine: string): string {
  const at = engine.indexOf(':');
  const kind = at < 0 ? engine : engine.slice(0, at);
  const model = at < 0 ? '' : engine.slice(at + 1);
  switch (kind) {
    case 'builtin':
      return 'the built-in engine';
    case 'llm':
      return model ? `the language model ${model}` : 'a language model';
    case 'local-onnx':
      return model ? `the local model ${model}` : 'a local model';
    default:
      return engine;
  }
}

import { LEARNED_WEIGHT_GROUPS } from './model-weights';

/**
 * Weights the SQuAD half cannot teach, because every SQuAD question has exactly one passage, no
 * headings, no guidelines and no typed candidates: set by hand, and documented in the README.
 */
export const HAND_SET_WEIGHTS: Readonly<Record<string, number>> = {
  'pr=0': 0,
  'pr=1': -0.3,
  'pr=2': -0.5,
  'pr=3-4': -0.7,
  'pr=5-9': -1,
  'pr=10+': -1.3,
  'ctx=1': 0.3,
  'ctx=2': 0.5,
  'ctx=3': 0.6,
  // Typed candidates: a full date is likelier the answer than a bare year found nearby.
  'dprec=day': 0,
  'dprec=month': -0.6,
  'dprec=quarter': -0.8,
  'dprec=year': -1.5,
  // "On what date was it signed?" and "Signed on August 3, 2020": the date beside the question's event word.
  'event=near': 1.5,
  // "How many employees" and "12 employees": the unit or noun after a number names the question's thing.
  unitq: 1.5,
  'pct=asked': 1,
  'pct=unasked': -0.5,
  // "What fee did they pay?" and "£275,000": an amount in a currency answers a question about money.
  'money=asked': 1.5,
  // "How many papers, in millions?" and "81.1M": written in the scale the question asks for.
  'scale=asked': 1,
  enummention: 0.5,
  // plausibility.ts: of several allowed values in one sentence, the one in the clause that says what the question asks about.
  'clause=asked': 3,
  // plausibility.ts: a value in the unit the question asks for ("How heavy" and "12 kg") is likelier
  // the answer; a bare number where a unit is expected, a footnote mark or a number in a name less.
  'unit=fit': 1.5,
  'unit=none': -0.7,
  footnote: -1.5,
  // A number written out with no question word after it ("the three of them"), a number the
  // question itself writes, and an amount per unit for a rate question.
  'word-number': -1.5,
  'in-question': -2,
  'rate=fit': 1.5,
  'in-name': -1,
  // plausibility.ts: a span naming a position ("Chief Executive Officer") for "What is the title of the person …?".
  'role=asked': 3,
  'role=none': -1.5,
  // plausibility.ts: for "What size …?", a span with a number ("2x2 inches") over one without.
  'measure=fit': 1.5,
  'measure=none': -1,
  // candidates.ts: a span that begins where the question's predicate takes its argument ("made of _").
  slot: 2,
};

/** A linear model over named features; unknown features weigh 0. */
export class LinearModel {
  private readonly weights: Map<string, number>;

  constructor(...tables: Readonly<Record<string, number>>[]) {
    this.weights = new Map(tables.flatMap((t) => Object.entries(t)));
  }

  weight(feature: string): number {
    return this.weights.get(feature) ?? 0;
  }

  score(features: readonly string[]): number {
    let s = 0;
    for (const f of features) s += this.weights.get(f) ?? 0;
    return s;
  }
}

/**
 * Named weights from the compact form train-reader.js writes: per "prefix…suffix" group, lines of
 * "middle weight", each the weight of the feature prefix + middle + suffix.
 */
export function decodeWeights(groups: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [group, lines] of Object.entries(groups)) {
    const cut = group.indexOf('…');
    const prefix = group.slice(0, cut);
    const suffix = group.slice(cut + 1);
    for (const line of lines.split('\n')) {
      const space = line.lastIndexOf(' ');
      out[prefix + line.slice(0, space) + suffix] = Number(line.slice(space + 1));
    }
  }
  return out;
}

let learned: Record<string, number> | undefined;

/** The learned weights (bench/answering/train-reader.js), decoded once. */
export function learnedWeights(): Readonly<Record<string, number>> {
  learned ??= decodeWeights(LEARNED_WEIGHT_GROUPS);
  return learned;
}

/** The shipped model: the learned weights with the hand-set ones. */
export const builtinModel = (): LinearModel => new LinearModel(learnedWeights(), HAND_SET_WEIGHTS);

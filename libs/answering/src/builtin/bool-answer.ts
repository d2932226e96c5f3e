import type { AnswerTypeDto } from '@docintel/contracts';
import { notFound, type ReaderAnswer } from '../reader';
import { deniesWord, parseBoolean, sameSense, statementPolarity } from '../typed/booleans';
import { formatRawValue } from '../typed/data-value';
import { decide, type DecisionThresholds } from './decision';
import { porterStem } from '@docintel/retrieval';
import type { SentenceView } from './lattice';
import type { AnalyzedQuestion } from './question';
import { tokenize, type Token } from './tokens';

/** A label followed by yes/no ("Automatic renewal: Yes") states the value outright. */
const STATED = /[:=]\s*(yes|no|true|false|y|n)\b/i;

function stated(view: SentenceView): { value: boolean; start: number; end: number } | null {
  const { passage } = view;
  for (const seg of view.segments) {
    const from = view.tokens[seg.from].start;
    const to = view.tokens[seg.to - 1].end;
    const value = parseBoolean(passage.text.slice(from, to));
    // A cell that is only a yes/no word, in a row whose other cells name the question's thing.
    if (value !== null && seg.to - seg.from <= 2 && view.segments.length > 1) return { value, start: from, end: to };
  }
  const text = passage.text.slice(view.start, view.end);
  const m = STATED.exec(text);
  if (m) {
    const value = parseBoolean(m[1]);
    const start = view.start + m.index + m[0].length - m[1].length;
    if (value !== null) return { value, start, end: start + m[1].length };
  }
  return null;
}

const NEGATION_END = /\b(not|never|no|none|neither)\W*$/i;
/** "however, this has been proven to be false": a clause that refutes the one before it. */
const REFUTES = /^\W*(?:however|but|yet)?\W*(?:this|that|it|which)\b[^,;]*\b(?:false|untrue|wrong|incorrect|a myth|not true)\b/i;
/**
 * Words that take what follows out of the statement ("every continent except Antarctica", "unless
 * he is serving under a temporary appointment"); "without" is a negation word already.
 */
const EXCLUDING = /^(?:except|excepting|excluding|unless|but not|other than|apart from|save for)$/i;
/** How far an exception reaches when no comma or semicolon closes it first. */
const EXCEPTION_REACH = 12;

/**
 * The clauses of a sentence: split at semicolons, at "however", "whereas", ", but", and at ", and"
 * or ", while" before a new subject ("we have not declared any, and we do not plan to"), so that
 * the negations of two clauses do not cancel out.
 */
function clausesOf(sentence: string): string[] {
  return sentence
    .split(
      /;|,?\s+(?=however\b|whereas\b|but\b)|,\s+(?:and|or|while)\s+(?=(?:we|they|it|he|she|i|you|the|this|that|these|those|there|its|their|our)\s)/i,
    )
    .map((c) => c.trim())
    .filter(Boolean);
}

/** The question's words as written, content words only, for matching by sense. */
function askedWords(q: Pick<AnalyzedQuestion, 'tokens'>): string[] {
  return q.tokens.filter((t) => !t.stop && t.shape !== 'p' && t.shape !== 'd').map((t) => t.lower);
}

/**
 * The tokens of a clause that deny one of the question's words by their sense alone ("wider" for
 * "narrower", "non-refundable" for "refunded"), when the clause does not also use the word itself.
 */
function contraryTokens(tokens: Token[], asked: readonly string[]): Token[] {
  const stems = new Set(tokens.map((t) => t.stem));
  const open = asked.filter((a) => !stems.has(porterStem(a)));
  return tokens.filter((t) => !t.stop && t.shape !== 'p' && open.some((a) => deniesWord(a, t.lower)));
}

/**
 * Whether a question word is mentioned only inside an exception ("unless he is serving under a
 * temporary appointment") while the rest of the clause states the rule: the rule is then denied of
 * it. A word that is also outside the exception ("except as provided in the rule, the rules …")
 * is what the rule is about, not what it leaves out.
 */
function excepted(tokens: Token[], isTerm: (t: Token) => boolean): boolean {
  const inside = new Set<number>();
  for (let k = 0; k < tokens.length; k++) {
    const pair = k > 0 ? `${tokens[k - 1].lower} ${tokens[k].lower}` : '';
    if (!EXCLUDING.test(tokens[k].lower) && !EXCLUDING.test(pair)) continue;
    for (let j = k + 1; j < tokens.length && j - k <= EXCEPTION_REACH && !/^[,;:()]$/.test(tokens[j].text); j++) inside.add(j);
  }
  if (!inside.size) return false;
  const outside = new Set(tokens.filter((t, k) => !inside.has(k) && isTerm(t)).map((t) => t.stem));
  if (!outside.size) return false;
  return tokens.some((t, k) => inside.has(k) && isTerm(t) && !outside.has(t.stem));
}

/**
 * Whether a sentence affirms the question's statement. The clause that holds most of the question's
 * words decides (an elliptical clause, "those in the tropics are generally not", also holds the
 * words of the clause before it and denies them); a word that denies a question word by its sense
 * ("wider" for "narrower") flips it, and so do a following clause that calls it false and a question
 * word that only an exception ("except", "unless") mentions.
 */
export function sentencePolarity(sentence: string, q: Pick<AnalyzedQuestion, 'terms' | 'tokens'>): boolean {
  const asked = askedWords(q);
  const clauses = clausesOf(sentence).map((text) => {
    const tokens = tokenize(text);
    const contraries = contraryTokens(tokens, asked);
    const terms = new Set(
      tokens.filter((t) => !t.stop && (q.terms.has(t.stem) || asked.some((a) => sameSense(a, t.lower)))).map((t) => t.stem),
    );
    for (const t of contraries) terms.add(t.stem);
    return { text, tokens, terms, contraries };
  });
  let best = 0;
  let bestCount = -1;
  clauses.forEach((c, k) => {
    const elliptical = k > 0 && NEGATION_END.test(c.text);
    const count = elliptical ? new Set([...c.terms, ...clauses[k - 1].terms]).size : c.terms.size;
    if (count > bestCount || (elliptical && count >= bestCount)) {
      best = k;
      bestCount = count;
    }
  });
  const chosen = clauses[best];
  const focus = (w: string) => q.terms.has(porterStem(w)) || asked.some((a) => sameSense(a, w));
  if (!chosen) return statementPolarity(sentence, focus).affirmative;
  // A contrary is a focus word too, so that "not wider" affirms "narrower?" no more than "wider" does.
  const contrary = new Set(chosen.contraries.flatMap((t) => t.lower.split(/[-']/)));
  const focusOrContrary = (w: string) => focus(w) || contrary.has(w.toLowerCase());
  let affirmative = best > 0 && NEGATION_END.test(chosen.text) ? false : statementPolarity(chosen.text, focusOrContrary).affirmative;
  if (chosen.contraries.length) affirmative = !affirmative;
  if (excepted(chosen.tokens, (t) => !t.stop && q.terms.has(t.stem))) affirmative = !affirmative;
  const next = clauses[best + 1];
  if (next && REFUTES.test(next.text)) affirmative = !affirmative;
  return affirmative;
}

/** Words that make a statement an obligation, and words that make it a permission, an option or advice. */
const OBLIGATION = new Set(
  'must shall required require requires requirement mandatory obligatory compulsory obliged obligation need needs necessary'.split(' '),
);
const PERMISSION = new Set(
  'may can could might optional voluntary voluntarily recommended recommend encouraged encourage should advisable discretion discretionary permitted allowed allow allows'.split(
    ' ',
  ),
);
const AUXILIARIES = new Set('is are was were be do does did can could may might must shall should will would has have had need'.split(' '));

/** Words about modality: a sentence saying "optional" or "must" addresses a question about "mandatory". */
const MODALITY = new Set([...OBLIGATION, ...PERMISSION, 'prohibited', 'forbidden', 'permit', 'permits', 'allowed']);
const MODALITY_STEMS = new Set([...MODALITY].map((w) => porterStem(w)));

/**
 * What a yes/no question predicates of its subject: the words after the subject ("mandatory" in
 * "Are the Practice Tips mandatory?", "removed" and "reused" in "Can the nut be removed and
 * reused?"). The subject is the first run of content words after the auxiliary; when that run
 * ends in a lower-case word, the word is the verb ("Does the agreement renew …"). Empty when the
 * question has no such shape.
 */
export function predicateWords(question: string): Token[] {
  const tokens = tokenize(question).filter((t) => t.shape !== 'p');
  if (!tokens.length || !AUXILIARIES.has(tokens[0].lower)) return [];
  let k = 1;
  while (k < tokens.length && tokens[k].stop) k++;
  const run: typeof tokens = [];
  while (k < tokens.length && !tokens[k].stop) run.push(tokens[k++]);
  const verb = run.length >= 2 && run[run.length - 1].shape === 'x' ? [run[run.length - 1]] : [];
  return [...verb, ...tokens.slice(k).filter((t) => !t.stop)];
}

/**
 * How much of the question's predicate a sentence speaks of, 0..1: each predicate word it uses, or
 * denies by a contrary ("wider" for "narrower"); a modal predicate ("mandatory") is spoken of by any
 * modal word. 1 when the question has no predicate to look for.
 */
function predicateShare(view: SentenceView, predicate: readonly Token[]): number {
  if (!predicate.length) return 1;
  const stems = new Set(view.tokens.map((t) => t.stem));
  const words = view.tokens.filter((t) => !t.stop && t.shape !== 'p').map((t) => t.lower);
  const modal = [...stems].some((s) => MODALITY_STEMS.has(s));
  for (const w of words) if (w.includes('-')) w.split('-').forEach((part) => stems.add(porterStem(part)));
  const hit = predicate.filter(
    (p) => stems.has(p.stem) || (modal && MODALITY_STEMS.has(p.stem)) || words.some((w) => sameSense(p.lower, w) || deniesWord(p.lower, w)),
  ).length;
  return hit / predicate.length;
}

/**
 * A question about an obligation ("Must the tenant …?", "Is it mandatory?") that the sentence
 * affirms only as a permission, an option or advice ("may", "optional", "recommended") is
 * answered no: that one may do a thing does not mean one must.
 */
function onlyPermitted(question: string, sentence: string): boolean {
  if (!asksObligation(question)) return false;
  const said = tokenize(sentence).map((t) => t.lower);
  return said.some((w) => PERMISSION.has(w)) && !said.some((w) => OBLIGATION.has(w));
}

/** "Must …?", "Is it mandatory …?", "Does he have to …?", "Are trustees obliged to …?" */
function asksObligation(question: string): boolean {
  const asked = tokenize(question).map((t) => t.lower);
  return asked.some((w, k) => OBLIGATION.has(w) || ((w === 'have' || w === 'has') && asked[k + 1] === 'to'));
}

/**
 * A question about an obligation that the sentence denies as an obligation ("need not personally
 * perform", "these are not considered mandatory") is answered no, whatever else the sentence
 * affirms: being told to do something in general is not being obliged to do what the question asks.
 */
function obligationDenied(question: string, sentence: string): boolean {
  if (!asksObligation(question)) return false;
  const said = tokenize(sentence).map((t) => t.lower);
  if (!said.some((w) => OBLIGATION.has(w))) return false;
  return !statementPolarity(sentence, (w) => OBLIGATION.has(w.toLowerCase()), 3).affirmative;
}

/** "only in the United States", "only when it is material": a restriction and what it restricts to. */
const ONLY = /\bonly\s+(?:in|to|for|when|if|within|at|on|by|where|after|before|during|from)\b([^,;.]*)/i;
/** Words saying a condition does not matter ("whether or not material", "regardless of size"). */
const UNCONDITIONAL = /\b(?:whether or not|regardless of|irrespective of|no matter)\b/i;

/**
 * A restriction that answers no. The sentence allows the thing only somewhere, at some time or for
 * someone the question does not ask about ("available only in the United States" for "Can applicants
 * abroad get it?"): the question names something outside the restriction. Or the question asks
 * whether it holds only under a condition, and the sentence says the condition does not matter
 * ("whether or not material").
 */
function restrictionDenies(q: AnalyzedQuestion, question: string, sentence: string): boolean {
  if (/\bonly\b/i.test(question) && UNCONDITIONAL.test(sentence)) return true;
  const m = ONLY.exec(sentence);
  if (!m || /\bonly\b/i.test(question)) return false;
  const restricted = tokenize(m[1]).filter((t) => !t.stop && t.shape !== 'p');
  const before = tokenize(sentence.slice(0, m.index));
  const elsewhere = new Set(before.map((t) => t.stem));
  // A question word inside the restriction is what the sentence allows, unless it is only the
  // subject named again ("only when the nut is seated").
  if (!restricted.length || restricted.some((t) => q.terms.has(t.stem) && !elsewhere.has(t.stem))) return false;
  const said = new Set(tokenize(sentence).map((t) => t.stem));
  return [...q.terms].some((term) => !said.has(term));
}

/** The question terms a sentence uses, or denies by a contrary, as a share of them: its coverage by sense. */
function senseCoverage(view: SentenceView, q: AnalyzedQuestion): number {
  const stems = new Set(view.tokens.map((t) => t.stem));
  const words = view.tokens.filter((t) => !t.stop && t.shape !== 'p').map((t) => t.lower);
  // "publicly-available" says "publicly" and "available"; "wider" says "narrower" by denying it.
  const parts = new Set(words.filter((w) => w.includes('-')).flatMap((w) => w.split('-').map((p) => porterStem(p))));
  const extra = q.tokens.filter(
    (t) =>
      !t.stop &&
      q.terms.has(t.stem) &&
      !stems.has(t.stem) &&
      (parts.has(t.stem) || words.some((w) => sameSense(t.lower, w) || deniesWord(t.lower, w))),
  );
  return Math.min(1, view.coverage + new Set(extra.map((t) => t.stem)).size / Math.max(1, q.terms.size));
}

/**
 * A yes/no question is answered by the sentence that speaks most of what the question asks: a
 * stated yes/no when there is one, otherwise the sentence that holds the question's subject and
 * most of its predicate (its words, or their contraries), read for its polarity around the question's
 * words, flipped when the question itself is negative ("Is the deposit not refundable?"), "no" when
 * it grants as a permission what the question asks as an obligation or restricts it to something
 * else. The confidence falls with the share of the predicate the sentence leaves unsaid.
 */
export function answerBool(
  q: AnalyzedQuestion,
  question: string,
  type: AnswerTypeDto,
  views: SentenceView[],
  thresholds: DecisionThresholds,
): ReaderAnswer {
  const first = views[0];
  const covered = views.map((v) => ({ view: v, coverage: senseCoverage(v, q) }));
  if (!first || covered.every((c) => c.coverage < thresholds.minCoverage)) {
    return notFound(
      `No passage mentions enough of the question's words to say yes or no${first ? ` (best match ${Math.round(first.coverage * 100)}%)` : ''}.`,
      0,
    );
  }
  const predicate = predicateWords(question);
  const readings = covered
    .filter((c) => c.coverage >= thresholds.minCoverage)
    .map((c, order) => ({ ...c, order, explicit: stated(c.view), share: predicateShare(c.view, predicate) }))
    .filter((r) => r.explicit || r.share > 0);
  // The sentence that says most of the predicate decides; between equals, the one holding more of
  // the question, then the better-matched one in the reader's order.
  const reading = readings.sort((a, b) => b.share - a.share || b.coverage - a.coverage || a.order - b.order)[0];
  if (!reading) {
    const words = predicate.map((t) => t.text);
    return notFound(
      `The sentences that match the question best do not say whether it is ${words.join(' ')}: "${first.passage.text.slice(first.start, first.end)}".`,
      0,
    );
  }
  const { view, explicit, coverage, share } = reading;
  const where = `${view.passage.fileName}, passage ${view.passageIndex + 1}`;
  const sentence = view.passage.text.slice(view.start, view.end);
  const permissionOnly = !explicit && (onlyPermitted(question, sentence) || obligationDenied(question, sentence));
  const restricted = !explicit && !permissionOnly && restrictionDenies(q, question, sentence);
  const value = explicit
    ? explicit.value
    : (() => {
        const negatedQuestion = !statementPolarity(question, (w) => q.terms.has(porterStem(w))).affirmative;
        const affirms = sentencePolarity(sentence, q) && !permissionOnly && !restricted;
        return affirms !== negatedQuestion;
      })();
  const dataValue = type.multiValued ? { boolListValue: [value] } : { boolValue: value };
  // A restriction speaks of the question words it leaves out ("only in the city centre" of
  // "customers in the suburbs"): they count as half said.
  const said = restricted ? coverage + (1 - Math.min(1, coverage)) / 2 : coverage;
  const raw = Math.min(1, said) * (explicit ? 0.9 : 0.7 * (0.6 + 0.4 * share));
  const decision = decide({ probability: 1, coverage, fit: 1 }, thresholds, raw);
  if (!decision.found) return notFound(`The best-matching sentence (${where}) is too uncertain: ${decision.reason}.`, decision.confidence);
  return {
    found: true,
    rawValue: formatRawValue(dataValue, type),
    value: dataValue,
    confidence: decision.confidence,
    explanation: explicit
      ? `The document states "${view.passage.text.slice(explicit.start, explicit.end)}" (${where}).`
      : permissionOnly
        ? `The best-matching sentence (${where}) does not make it an obligation.`
        : restricted
          ? `The best-matching sentence (${where}) restricts it to something other than what the question asks.`
          : `Read from the polarity of the best-matching sentence (${where}); ${value ? 'it affirms' : 'it denies'} the question's statement.`,
    citations: [{ passageId: view.passage.id, start: explicit?.start ?? view.start, end: explicit?.end ?? view.end }],
  };
}

import type { AnswerTypeDto, DataValue } from '@docintel/contracts';
import { notFound, type Citation, type Reader, type ReaderAnswer, type ReaderPassage, type ReaderQuestion } from '../reader';
import { formatRawValue, toDataValue } from '../typed/data-value';
import { answerBool } from './bool-answer';
import { candidatesFor, type RawCandidate } from './candidates';
import { coordinationAround } from './coordination';
import { absentFrom, buildLattice, DEFAULT_LATTICE, type SentenceView } from './lattice';
import { confidenceOf, decide, DEFAULT_THRESHOLDS, minConfidenceFor } from './decision';
import { builtinModel, type LinearModel } from './model';
import { analyzeQuestion, type AnalyzedQuestion, type QuestionType } from './question';
import { answerFromTable } from './table-lookup';
import { choose, leastRisk, scoreSpan, scoreView, type Candidate, type ScoredView } from './scoring';

export interface BuiltinReaderOptions {
  /**
   * Below this confidence the reader says it found nothing, whatever the answer type. Unset: the
   * calibrated defaults of decision.ts (DEFAULT_THRESHOLDS, stricter for numbers and dates).
   */
  minConfidence?: number;
  /** Share of the question's terms the answer's sentence must contain, else nothing was found (default 0.3). */
  minCoverage?: number;
  /** Sentences considered, the best by matched question terms. */
  maxSentences?: number;
  /** Values of a multi-valued answer at most. */
  maxValues?: number;
  /** Candidates scored in full per question, the best by the scores of their first and last tokens. */
  maxScored?: number;
  model?: LinearModel;
}

const DEFAULTS = { ...DEFAULT_THRESHOLDS, maxSentences: DEFAULT_LATTICE.maxSentences, maxValues: 20, maxScored: 300 };

/**
 * What a typed question asks for, whatever its wording: a DATE question is a "when" question for
 * the features even when it reads "What is the end date?".
 */
function typedQuestionType(type: AnswerTypeDto, asked: QuestionType): QuestionType {
  switch (type.dataType) {
    case 'DATE':
      return asked === 'when' || asked === 'year' ? asked : 'when';
    case 'INT':
    case 'FLOAT':
      return asked === 'howmany' || asked === 'howmuch' || asked === 'howlong' || asked === 'howadj' || asked === 'year'
        ? asked
        : 'howmuch';
    case 'STRING':
    case 'BOOL':
    case 'ENUM':
      return asked;
  }
}

/** The kind of a STRING item: a name (every word capitalised), a number, or a phrase. */
function kindOf(text: string): 'name' | 'number' | 'phrase' {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length && words.every((w) => /^[\p{N}.,%$€£-]+$/u.test(w))) return 'number';
  const content = words.filter((w) => !/^(?:of|and|the|de|van|von|der|da|du|la|le|for|&)$/i.test(w));
  return content.length && content.every((w) => /^[\p{Lu}\p{N}]/u.test(w)) ? 'name' : 'phrase';
}

/** Whether two sentences belong to one list: the same sentence or paragraph, or items (list items, rows, cells) under the same headings. */
function sameList(a: SentenceView, b: SentenceView): boolean {
  // One paragraph's sentences or lines speak of one set ("Globex is based in …\nInitech is based in …").
  if (a === b || a.passage.id === b.passage.id) return true;
  const item = (v: SentenceView) => ['list_item', 'row', 'cell'].includes(v.passage.nodeType);
  return item(a) && item(b) && a.passage.nodeType === b.passage.nodeType && a.passage.headings.join('\n') === b.passage.headings.join('\n');
}

interface Valued {
  candidate: Candidate;
  probability: number;
  value: DataValue;
  rawValue: string;
}

/**
 * The built-in extractive reader: no model files, CPU only. It keeps the sentences that share the
 * most words with the question, takes the spans the answerType allows (any short span for STRING;
 * dates, numbers or allowed values for the typed ones; sentence polarity for BOOL), scores them with
 * a linear model over lexical, distance and question-type features, and answers with the most
 * probable span, or says it found nothing when that span is unlikely or its sentence barely matches.
 */
export class BuiltinReader implements Reader {
  readonly name = 'builtin';
  private readonly options: typeof DEFAULTS;
  private readonly model: LinearModel;
  /** The caller's threshold for every answer type, when one was given. */
  private readonly minConfidence: number | undefined;

  constructor(options: BuiltinReaderOptions = {}) {
    const { model, ...rest } = options;
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
    this.minConfidence = options.minConfidence;
    this.model = model ?? builtinModel();
  }

  /** The thresholds a question of this answer type is decided by. */
  private thresholdsFor(type: AnswerTypeDto): typeof DEFAULTS {
    return { ...this.options, minConfidence: this.minConfidence ?? minConfidenceFor(type.dataType) };
  }

  answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer> {
    signal?.throwIfAborted();
    return Promise.resolve(this.answerNow(question, passages));
  }

  /** The same answer, synchronously: the work is CPU-bound and takes milliseconds. */
  answerNow(question: ReaderQuestion, passages: readonly ReaderPassage[]): ReaderAnswer {
    const type = question.answerType;
    if (!passages.length) return notFound('No passages were retrieved for this question.');
    const asked = analyzeQuestion(question);
    if (!asked.terms.size) return notFound('The question has no content words to look for.');
    const q: AnalyzedQuestion = { ...asked, type: typedQuestionType(type, asked.type) };
    const views = buildLattice(q, passages, { maxSentences: this.options.maxSentences });
    const thresholds = this.thresholdsFor(type);
    if (type.dataType === 'BOOL') return answerBool(q, question.question, type, views, thresholds);
    // A table cell or a "key: value" fact that names both what and where is asked answers by its structure.
    const tabled = answerFromTable(q, question.question, passages, type, thresholds);
    if (tabled) return tabled;
    const vetoed: RawCandidate[] = [];
    const valued = this.rank(q, type, views, vetoed);
    if (!valued.length) return notFound(this.nothingFound(type, views, vetoed), 0);
    return this.respond(q, type, valued, thresholds);
  }

  private rank(q: AnalyzedQuestion, type: AnswerTypeDto, views: SentenceView[], vetoed: RawCandidate[]): Valued[] {
    const raws: { raw: RawCandidate; scored: ScoredView; bounds: number }[] = [];
    for (const view of views) {
      // Mentions no person would take (a section number for a count) are not candidates at all.
      const raw = candidatesFor(view, type, q).filter((r) => !r.veto || (vetoed.push(r), false));
      if (!raw.length) continue;
      const scored = scoreView(view, this.model);
      for (const r of raw) raws.push({ raw: r, scored, bounds: scored.startScore[r.i] + scored.endScore[r.j] });
    }
    // The span features cost most of the time; spans whose ends already score far below the best
    // ones cannot win, so only the `maxScored` likeliest by their ends are scored in full.
    const { maxScored } = this.options;
    const kept = raws.length > maxScored ? [...raws].sort((a, b) => b.bounds - a.bounds).slice(0, maxScored) : raws;
    const candidates: Candidate[] = [];
    for (const { raw: r, scored } of kept) {
      const c = scoreSpan(scored, r.i, r.j, q, this.model, r.extra);
      if (r.start !== undefined && r.end !== undefined) {
        c.start = r.start;
        c.end = r.end;
      }
      if (r.label) c.key = r.label;
      c.fit = r.fit ?? 1;
      candidates.push(c);
    }
    const choice = choose(candidates);
    if (!choice) return [];
    // A single STRING answer is scored by its word overlap with the right one, so the reader picks the
    // span of least expected loss; typed values are right or wrong, so they keep the likeliest.
    const ranked = type.dataType === 'STRING' && !type.multiValued ? leastRisk(choice.ranked) : choice.ranked;
    const out: Valued[] = [];
    for (const { candidate, probability } of ranked) {
      // A span the type cannot read (3.7 for INT) is skipped, not answered.
      const read = toDataValue(type.dataType === 'ENUM' ? candidate.key : candidate.text, { ...type, multiValued: false });
      if (!read.value) continue;
      out.push({ candidate, probability, value: read.value, rawValue: this.rawValue(candidate, read.value, type) });
      if (out.length >= this.options.maxValues * 3) break;
    }
    return out;
  }

  /** As written in the document, except dates (per dateFormat), rounded floats and enum values, which are written as asked. */
  private rawValue(c: Candidate, value: DataValue, type: AnswerTypeDto): string {
    if (type.dataType === 'DATE' || type.dataType === 'ENUM' || (type.dataType === 'FLOAT' && type.decimalPrecision))
      return formatRawValue(value, type);
    return c.text;
  }

  private respond(q: AnalyzedQuestion, type: AnswerTypeDto, valued: Valued[], thresholds: typeof DEFAULTS): ReaderAnswer {
    const [best] = valued;
    const { view } = best.candidate;
    const absent = absentFrom(view, q);
    // A sign ("£275,000", "12%") says what kind of measure a number is, as the focus would ("fee", "rate").
    // So does a unit the question names ("in GHz" answered by "2.45 GHz").
    const unitAsked = (best.candidate.text.match(/\p{L}+/gu) ?? []).some((w) =>
      q.tokens.some((t) => !t.stop && t.lower === w.toLowerCase()),
    );
    const bareNumber = (type.dataType === 'INT' || type.dataType === 'FLOAT') && !/[$€£¥%]/.test(best.candidate.text) && !unitAsked;
    const where = `${view.passage.fileName}, passage ${view.passageIndex + 1}`;
    const chosen = type.multiValued ? this.several(valued, type) : [best];
    const evidence = {
      // A list is as likely as its items together: the model spreads the probability over them.
      probability: Math.min(
        1,
        chosen.reduce((sum, v) => sum + v.probability, 0),
      ),
      coverage: view.coverage,
      fit: best.candidate.fit ?? 1,
      focusAbsent: bareNumber && absent.focus,
      rareAbsent: absent.rare,
    };
    // The coverage veto counts by rarity too: a sentence holding the question's rarest words is on its
    // subject though it lacks several common ones ("Zephyrnet: amended 2026-06-18").
    const decision = decide({ ...evidence, coverage: Math.max(view.coverage, view.idfCoverage) }, thresholds, confidenceOf(evidence));
    const { confidence } = decision;
    if (!decision.found) {
      return notFound(
        `The best candidate, "${best.candidate.text}" (${where}), was withheld: ${decision.reason}${decision.confidence === decision.raw ? '' : ` (confidence ${decision.raw.toFixed(2)} otherwise)`}.`,
        confidence,
      );
    }
    const citations: Citation[] = chosen.map((v) => ({
      passageId: v.candidate.view.passage.id,
      start: v.candidate.start,
      end: v.candidate.end,
    }));
    const value = type.multiValued ? toDataValue(chosen.map((v) => v.rawValue).join('\n'), type).value : best.value;
    return {
      found: true,
      rawValue: chosen.map((v) => v.rawValue).join('; '),
      value,
      confidence,
      explanation: `Read from ${where} (confidence ${confidence.toFixed(2)}): "${this.sentenceOf(best.candidate)}"`,
      citations,
    };
  }

  /**
   * Values of a multi-valued answer: those at least a twentieth as likely as the best, and, for
   * typed answers, any other value of the best one's sentence ("1 March, 1 April and 1 May"): the
   * model was learned on single answers, so it ranks the later items of a list far below the first
   * although they answer as well. Overlapping spans are left out.
   */
  private several(valued: Valued[], type: AnswerTypeDto): Valued[] {
    const best = valued[0];
    const listed = type.dataType === 'STRING' ? this.coordinated(valued, type) : undefined;
    if (listed) return listed;
    const floor = best.probability / 20;
    const sameSentence = (v: Valued) => v.candidate.view === best.candidate.view && type.dataType !== 'STRING';
    const kind = kindOf(best.candidate.text);
    const chosen: Valued[] = [];
    for (const v of valued) {
      if (chosen.length >= this.options.maxValues) break;
      if (v.probability < floor && !sameSentence(v)) continue;
      // A list of authors is not continued with a list of data sources: STRING items keep the best one's kind.
      // and come from the best one's list: its sentence, or the sibling items of a list or table.
      if (type.dataType === 'STRING' && (kindOf(v.candidate.text) !== kind || !sameList(v.candidate.view, best.candidate.view))) continue;
      const c = v.candidate;
      const overlaps = chosen.some(
        (o) => o.candidate.view.passage.id === c.view.passage.id && o.candidate.start < c.end && c.start < o.candidate.end,
      );
      if (!overlaps) chosen.push(v);
    }
    return chosen;
  }

  /** The items of the coordination the best span stands in ("A, B and C"), each cited where it stands. */
  private coordinated(valued: Valued[], type: AnswerTypeDto): Valued[] | undefined {
    const best = valued[0];
    const c = best.candidate;
    const kind = kindOf(c.text) === 'name' ? 'name' : 'phrase';
    const items = coordinationAround(c.view.passage.text, c.view.start, c.view.end, c.start, c.end, kind);
    if (!items) return undefined;
    // The list is as likely as the spans inside it together (the model's spans exclude each other).
    const from = items[0].start;
    const to = items[items.length - 1].end;
    const inside = valued
      .filter((v) => v.candidate.view.passage.id === c.view.passage.id && v.candidate.start >= from && v.candidate.end <= to)
      .reduce((sum, v) => sum + v.probability, 0);
    const probability = Math.min(1, Math.max(best.probability, inside)) / items.length;
    const out: Valued[] = [];
    for (const item of items.slice(0, this.options.maxValues)) {
      const read = toDataValue(item.text, { ...type, multiValued: false });
      if (!read.value) continue;
      const candidate: Candidate = { ...c, start: item.start, end: item.end, text: item.text, key: item.text.toLowerCase() };
      out.push({ candidate, probability, value: read.value, rawValue: item.text });
    }
    return out.length > 1 ? out : undefined;
  }

  private sentenceOf(c: Candidate): string {
    const s = c.view.passage.text.slice(c.view.start, c.view.end);
    return s.length > 300 ? `${s.slice(0, 297)}...` : s;
  }

  private nothingFound(type: AnswerTypeDto, views: SentenceView[], vetoed: readonly RawCandidate[]): string {
    if (!views.length) return 'No sentence of the passages shares a word with the question.';
    if (vetoed.length) {
      const shown = vetoed.slice(0, 3).map((r) => `"${r.view.passage.text.slice(r.start ?? 0, r.end ?? 0)}" is ${r.veto}`);
      return `No value that fits the question was found; left out: ${shown.join('; ')}${vetoed.length > 3 ? ` and ${vetoed.length - 3} more` : ''}.`;
    }
    const kind = {
      STRING: 'answer span',
      INT: 'whole number',
      FLOAT: 'number',
      DATE: 'date',
      ENUM: 'allowed value',
      BOOL: 'yes/no statement',
    }[type.dataType];
    return `No ${kind} was found in the sentences that match the question best.`;
  }
}

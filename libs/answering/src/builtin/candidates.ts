import type { AnswerTypeDto } from '@docintel/contracts';
import { findDates } from '../typed/dates';
import { findEnumMentions } from '../typed/enums';
import { findNumbers } from '../typed/numbers';
import { stringSpans, type SentenceView } from './lattice';
import {
  askedScale,
  asksRole,
  datePlausibility,
  enumClauseMatches,
  eventDates,
  numberPlausibility,
  spanPlausibility,
} from './plausibility';
import type { AnalyzedQuestion } from './question';
import { tokenRange } from './scoring';

/** A span that may answer the question, before scoring; `extra` are features only typed spans have. */
export interface RawCandidate {
  view: SentenceView;
  i: number;
  j: number;
  /** Character span when it is narrower or wider than its tokens ("€1,200" inside "€1,200.50"). */
  start?: number;
  end?: number;
  extra: string[];
  /** For ENUM: the allowed value the span names. */
  label?: string;
  /** How well a typed mention fits what is asked, 0..1 (plausibility.ts); 1 when unknown. */
  fit?: number;
  /** Why no person would take this mention as the answer; such candidates are never scored. */
  veto?: string;
}

/** Words of a question that asks for an amount of money ("What transfer fee did they pay?"). */
const MONEY_WORDS: ReadonlySet<string> = new Set(
  'fee fees pay paid pays cost costs price priced salary wage wages revenue revenues spend spent worth money budget funding fund raised sum income profit loss earnings dollars euros pounds'.split(
    ' ',
  ),
);

/** SQuAD answers are at most a few words long; 95% of them fit in 10 tokens. */
export const MAX_STRING_TOKENS = 10;

const PREPOSITIONS = new Set('of by from in into with for to on at as about'.split(' '));

/**
 * Tokens where the argument the question asks for begins: after "made of" when the question ends
 * "… made of?", after "funded by" when it asks "Who funded …?". The learned model knows the words
 * around a span, not which of them is the question's predicate, and took "Rol-top" beside "nut"
 * over "aluminum alloy" after "made of".
 */
function argumentSlots(view: SentenceView, q: AnalyzedQuestion): Set<number> {
  const slots = new Set<number>();
  const words = q.tokens.filter((t) => t.shape !== 'p');
  const last = words[words.length - 1];
  const head = words[words.length - 2];
  const pairs: [string, string][] = [];
  // A stranded preposition: "What metal is it made of?" asks for the object of "made of".
  if (last && head && PREPOSITIONS.has(last.lower) && !head.stop) pairs.push([head.stem, last.lower]);
  // An active "Who funded X?" is answered by a passive "X was funded by Y".
  if (q.verb && (q.type === 'who' || q.type === 'what' || q.type === 'which')) pairs.push([q.verb, 'by']);
  if (!pairs.length) return slots;
  const { tokens } = view;
  for (let k = 0; k + 2 < tokens.length; k++) {
    if (pairs.some(([w, p]) => tokens[k].stem === w && tokens[k + 1].lower === p)) slots.add(k + 2);
  }
  return slots;
}

function typedRange(view: SentenceView, start: number, end: number): [number, number] | null {
  return tokenRange(view, view.start + start, view.start + end);
}

/** Candidates narrowed by the answerType: dates for DATE, numbers for INT and FLOAT, allowed values for ENUM, spans for STRING. */
export function candidatesFor(view: SentenceView, type: AnswerTypeDto, q: AnalyzedQuestion): RawCandidate[] {
  const text = view.passage.text.slice(view.start, view.end);
  const at = (
    start: number,
    end: number,
    extra: string[],
    label?: string,
    fit?: { fit: number; veto?: string; extra: string[] },
  ): RawCandidate[] => {
    const r = typedRange(view, start, end);
    if (!r) return [];
    return [
      {
        view,
        i: r[0],
        j: r[1],
        start: view.start + start,
        end: view.start + end,
        extra: [...extra, ...(fit?.extra ?? [])],
        label,
        fit: fit?.fit,
        veto: fit?.veto,
      },
    ];
  };
  switch (type.dataType) {
    case 'STRING': {
      const out: RawCandidate[] = [];
      const slots = argumentSlots(view, q);
      const role = asksRole(q);
      for (const [i, j] of stringSpans(view, MAX_STRING_TOKENS)) {
        // "I", "Inc" or "Exhibit 31.1" never answers "Who …?": such spans are not candidates.
        const fit = spanPlausibility(view, i, j, q, role);
        if (fit.drop) continue;
        out.push({ view, i, j, extra: slots.has(i) ? ['slot', ...fit.extra] : fit.extra });
      }
      return out;
    }
    case 'DATE': {
      const dates = findDates(text, type.dateFormat);
      const ranges = dates.map((d) => typedRange(view, d.start, d.end) ?? ([-1, -1] as [number, number]));
      const beside = eventDates(view, ranges, q);
      return dates.flatMap((d, k) =>
        at(
          d.start,
          d.end,
          [`dprec=${d.precision}`, ...(beside.has(k) ? ['event=near'] : [])],
          undefined,
          datePlausibility(d.start, text, q, d.precision),
        ),
      );
    }
    case 'INT':
    case 'FLOAT': {
      const dates = findDates(text, type.dateFormat).filter((d) => d.precision !== 'year');
      const asksPercent = q.words.has('percent') || q.words.has('percentage') || q.words.has('%') || q.words.has('rate');
      const asksMoney = [...q.words].some((w) => MONEY_WORDS.has(w));
      const scale = askedScale(q.tokens.map((t) => t.text).join(' '));
      return findNumbers(text)
        .filter((n) => !dates.some((d) => n.start < d.end && d.start < n.end))
        .filter((n) => type.dataType === 'FLOAT' || !n.fractional)
        .flatMap((n) => {
          const extra: string[] = [];
          const unit = (n.unit ?? n.nextWord ?? '').toLowerCase();
          if (unit && [...q.terms].some((t) => unit.startsWith(t) || t.startsWith(unit.slice(0, 4)))) extra.push('unitq');
          if (n.percent) extra.push(asksPercent ? 'pct=asked' : 'pct=unasked');
          if (n.currency && asksMoney) extra.push('money=asked');
          // Asked "in millions", "81.1M" is read as 81.1: the span stops before the scale word.
          let end = n.end;
          if (scale && n.scale?.factor === scale) {
            extra.push('scale=asked');
            end = n.scale.bodyEnd;
          }
          return at(n.start, end, extra, undefined, numberPlausibility(n, text, view, q));
        });
    }
    case 'ENUM': {
      const mentions = findEnumMentions(text, type.enumValues ?? [], type.rejectedEnumValues).flatMap((m) => {
        const range = typedRange(view, m.start, m.end);
        return range ? [{ ...m, range }] : [];
      });
      const inAskedClause = enumClauseMatches(view, mentions, q, type.enumValues ?? []);
      return mentions.flatMap((m, k) => at(m.start, m.end, ['enummention', ...(inAskedClause.has(k) ? ['clause=asked'] : [])], m.value));
    }
    case 'BOOL':
      return [];
  }
}

import type { AnswerTypeDto } from '@docintel/contracts';
import { findDates } from '../typed/dates';
import { findEnumMentions } from '../typed/enums';
import { findNumbers } from '../typed/numbers';
import { stringSpans, type SentenceView } from './lattice';
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
}

/** Words of a question that asks for an amount of money ("What transfer fee did they pay?"). */
const MONEY_WORDS: ReadonlySet<string> = new Set(
  'fee fees pay paid pays cost costs price priced salary wage wages revenue revenues spend spent worth money budget funding fund raised sum income profit loss earnings dollars euros pounds'.split(
    ' ',
  ),
);

/** SQuAD answers are at most a few words long; 95% of them fit in 10 tokens. */
export const MAX_STRING_TOKENS = 10;

function typedRange(view: SentenceView, start: number, end: number): [number, number] | null {
  return tokenRange(view, view.start + start, view.start + end);
}

/** Candidates narrowed by the answerType: dates for DATE, numbers for INT and FLOAT, allowed values for ENUM, spans for STRING. */
export function candidatesFor(view: SentenceView, type: AnswerTypeDto, q: AnalyzedQuestion): RawCandidate[] {
  const text = view.passage.text.slice(view.start, view.end);
  const at = (start: number, end: number, extra: string[], label?: string): RawCandidate[] => {
    const r = typedRange(view, start, end);
    return r ? [{ view, i: r[0], j: r[1], start: view.start + start, end: view.start + end, extra, label }] : [];
  };
  switch (type.dataType) {
    case 'STRING': {
      const out: RawCandidate[] = [];
      for (const [i, j] of stringSpans(view, MAX_STRING_TOKENS)) out.push({ view, i, j, extra: [] });
      return out;
    }
    case 'DATE':
      return findDates(text, type.dateFormat).flatMap((d) => at(d.start, d.end, [`dprec=${d.precision}`]));
    case 'INT':
    case 'FLOAT': {
      const dates = findDates(text, type.dateFormat).filter((d) => d.precision !== 'year');
      const asksPercent = q.words.has('percent') || q.words.has('percentage') || q.words.has('%') || q.words.has('rate');
      const asksMoney = [...q.words].some((w) => MONEY_WORDS.has(w));
      return findNumbers(text)
        .filter((n) => !dates.some((d) => n.start < d.end && d.start < n.end))
        .filter((n) => type.dataType === 'FLOAT' || !n.fractional)
        .flatMap((n) => {
          const extra: string[] = [];
          const unit = (n.unit ?? n.nextWord ?? '').toLowerCase();
          if (unit && [...q.terms].some((t) => unit.startsWith(t) || t.startsWith(unit.slice(0, 4)))) extra.push('unitq');
          if (n.percent) extra.push(asksPercent ? 'pct=asked' : 'pct=unasked');
          if (n.currency && asksMoney) extra.push('money=asked');
          return at(n.start, n.end, extra);
        });
    }
    case 'ENUM':
      return findEnumMentions(text, type.enumValues ?? [], type.rejectedEnumValues).flatMap((m) =>
        at(m.start, m.end, ['enummention'], m.value),
      );
    case 'BOOL':
      return [];
  }
}

import { RE2JS } from 're2js';
import { FILTER_LIMITS } from './filter-limits';

/**
 * The one place where user-written regular expressions (a filter's content_patterns) are compiled
 * and run. They run on RE2 (re2js, a pure-JS port): matching takes time linear in the text, so a
 * pattern such as `(a+)+$` cannot stall the event loop the way a backtracking RegExp does. The
 * price is RE2 syntax: no lookahead, lookbehind or backreferences. Everything else that bounds the
 * cost lives here too: the compiled size of a pattern, and how much of a text is matched.
 */

export type CompiledPattern = { ok: true; re: RE2JS; programSize: number } | { ok: false; problem: string };

/** Compiled patterns (and the problems of patterns that do not compile), most recently used last. */
const cache = new Map<string, CompiledPattern>();
const CACHE_SIZE = 512;

/**
 * Before compiling, an upper bound of the size is estimated from the text: compiling is what a
 * huge counted repetition (`(?:...900 chars...){1000}`) makes slow, so such a pattern is refused
 * without compiling it. The estimate over-counts a little; the exact size is checked after compiling.
 */
const ESTIMATE_LIMIT = 20 * FILTER_LIMITS.maxPatternProgramSize;

const RE2_HINT = ' (RE2 syntax: no lookahead, lookbehind or backreferences)';

function describeSyntaxError(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  const unsupported = /unsupported Perl syntax|invalid escape sequence|invalid named capture/.test(message);
  return `is not a valid regular expression: ${message}${unsupported ? RE2_HINT : ''}`;
}

function compileUncached(pattern: string): CompiledPattern {
  const estimate = estimateProgramSize(pattern);
  if (estimate > ESTIMATE_LIMIT) return { ok: false, problem: tooComplex(`about ${estimate}`) };
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    return { ok: false, problem: describeSyntaxError(err) };
  }
  const programSize = re.programSize();
  if (programSize > FILTER_LIMITS.maxPatternProgramSize) return { ok: false, problem: tooComplex(String(programSize)) };
  return { ok: true, re, programSize };
}

function tooComplex(size: string): string {
  return (
    `is too complex: it compiles to ${size} RE2 instructions, the limit is ${FILTER_LIMITS.maxPatternProgramSize} ` +
    '(each character or class costs about one, and a counted repetition such as {100} multiplies what it repeats)'
  );
}

/** Compiles a content pattern with RE2 semantics (case-sensitive, `.` does not match a newline), cached. */
export function compileContentPattern(pattern: string): CompiledPattern {
  // Longer patterns are refused by the filter schema; they are not worth a cache slot either.
  if (pattern.length > FILTER_LIMITS.maxStringLength) {
    return { ok: false, problem: `must be at most ${FILTER_LIMITS.maxStringLength} characters long` };
  }
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const compiled = compileUncached(pattern);
  cache.set(pattern, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return compiled;
}

/** The part of a text that patterns are matched against: its first maxMatchedTextLength characters. */
export function boundedText(text: string): string {
  if (text.length <= FILTER_LIMITS.maxMatchedTextLength) return text;
  let end = FILTER_LIMITS.maxMatchedTextLength;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not cut a surrogate pair in half
  return text.slice(0, end);
}

/**
 * Whether the pattern matches anywhere in (the first maxMatchedTextLength characters of) the text.
 * A pattern that does not compile matches nothing: filters are validated when written, so only a
 * rule stored before a syntax change can hold one, and such a rule is refused before matching.
 */
export function contentPatternMatches(pattern: string, text: string): boolean {
  const compiled = compileContentPattern(pattern);
  return compiled.ok && compiled.re.test(boundedText(text));
}

/**
 * An upper bound of the RE2 program size of a pattern, from its text alone: literal characters,
 * classes and escapes count one, alternatives and groups a little, and repetition operators as RE2
 * counts them (`x{m,n}` is n copies of x). Unbalanced or invalid syntax is counted leniently;
 * RE2 itself rejects it when compiling.
 */
export function estimateProgramSize(pattern: string): number {
  const p = pattern;
  let i = 0;

  const skipClass = (): void => {
    // p[i] === '['; a leading '^' and then a leading ']' are part of the class.
    i++;
    if (p[i] === '^') i++;
    if (p[i] === ']') i++;
    while (i < p.length && p[i] !== ']') {
      if (p[i] === '\\') i += 2;
      else if (p.startsWith('[:', i)) {
        const end = p.indexOf(':]', i + 2);
        i = end === -1 ? i + 1 : end + 2;
      } else i++;
    }
    i++;
  };

  const escape = (): number => {
    // p[i] === '\\'
    const next = p[i + 1];
    if (next === 'Q') {
      const end = p.indexOf('\\E', i + 2);
      const literal = end === -1 ? p.length - (i + 2) : end - (i + 2);
      i = end === -1 ? p.length : end + 2;
      return Math.max(1, literal);
    }
    if ((next === 'p' || next === 'P' || next === 'x') && p[i + 2] === '{') {
      const end = p.indexOf('}', i + 3);
      i = end === -1 ? p.length : end + 1;
      return 1;
    }
    i += next === 'p' || next === 'P' ? 3 : next === 'x' ? 4 : 2;
    return 1;
  };

  const group = (): number => {
    // p[i] === '('
    i++;
    let capture = true;
    if (p[i] === '?') {
      if (p.startsWith('?P<', i) || (p[i + 1] === '<' && p[i + 2] !== '=' && p[i + 2] !== '!')) {
        const end = p.indexOf('>', i);
        i = end === -1 ? p.length : end + 1;
      } else {
        capture = false;
        while (i < p.length && p[i] !== ':' && p[i] !== ')') i++;
        if (p[i] === ')') {
          i++;
          return 0; // a flag group such as (?i)
        }
        i++;
      }
    }
    const inner = alternation();
    if (p[i] === ')') i++;
    return (capture ? 2 : 0) + inner;
  };

  const atom = (): number => {
    const c = p[i];
    if (c === '(') return group();
    if (c === '[') {
      skipClass();
      return 1;
    }
    if (c === '\\') return escape();
    i++;
    return 1;
  };

  const COUNTED = /^\{(\d{1,7})(,(\d{0,7}))?\}/;
  const concatenation = (): number => {
    let total = 0;
    while (i < p.length && p[i] !== '|' && p[i] !== ')') {
      let size = atom();
      for (;;) {
        const c = p[i];
        if (c === '*') {
          i++;
          size = 2 + size;
        } else if (c === '+' || c === '?') {
          i++;
          size = 1 + size;
        } else if (c === '{') {
          const m = COUNTED.exec(p.slice(i, i + 20));
          if (!m) break;
          i += m[0].length;
          const min = Number(m[1]);
          const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
          size = max === -1 ? (min === 0 ? 2 + size : 1 + min * size) : max * size + (max - min);
        } else break;
        if (p[i] === '?') i++; // non-greedy marker
      }
      total += Math.max(1, size);
    }
    return total;
  };

  const alternation = (): number => {
    let total = concatenation();
    let branches = 1;
    while (p[i] === '|') {
      i++;
      total += concatenation();
      branches++;
    }
    return total + branches - 1;
  };

  let total = 0;
  while (i < p.length) {
    total += alternation();
    if (p[i] === ')') i++; // an unbalanced ')': RE2 rejects the pattern, keep counting the rest
  }
  return total + 2;
}

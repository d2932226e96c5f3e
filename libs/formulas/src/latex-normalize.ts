import { parseMath } from '@unified-latex/unified-latex-util-parse';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';
import type * as Ast from '@unified-latex/unified-latex-types';

/** Spelled one way only. */
const CANONICAL: Record<string, string> = {
  le: 'leq',
  ge: 'geq',
  ne: 'neq',
  to: 'rightarrow',
  gets: 'leftarrow',
  dfrac: 'frac',
  tfrac: 'frac',
  dbinom: 'binom',
  tbinom: 'binom',
  land: 'wedge',
  lor: 'vee',
  lnot: 'neg',
  lbrace: '{',
  rbrace: '}',
  bigl: 'big',
  bigr: 'big',
  Bigl: 'Big',
  Bigr: 'Big',
};

/** Binary operators and relations: written with a space on each side. */
const SPACED_MACROS = new Set([
  'pm',
  'mp',
  'times',
  'cdot',
  'div',
  'ast',
  'star',
  'circ',
  'bullet',
  'oplus',
  'ominus',
  'otimes',
  'odot',
  'cup',
  'cap',
  'setminus',
  'wedge',
  'vee',
  'leq',
  'geq',
  'neq',
  'approx',
  'equiv',
  'sim',
  'simeq',
  'cong',
  'propto',
  'in',
  'notin',
  'ni',
  'subset',
  'subseteq',
  'supset',
  'supseteq',
  'rightarrow',
  'leftarrow',
  'Rightarrow',
  'Leftarrow',
  'leftrightarrow',
  'Leftrightarrow',
  'longrightarrow',
  'Longrightarrow',
  'iff',
  'implies',
  'mapsto',
  'll',
  'gg',
  'prec',
  'succ',
  'preceq',
  'succeq',
  'perp',
  'parallel',
  'mid',
  'over',
  'choose',
  'coloneqq',
  'doteq',
  'lesssim',
  'gtrsim',
  'leqslant',
  'geqslant',
]);
const SPACED_STRINGS = new Set(['+', '-', '=', '<', '>']);

/** Operator names that mathml-to-latex and PDF text leave as plain letters. */
export const FUNCTION_NAMES = [
  'arccos',
  'arcsin',
  'arctan',
  'arg',
  'cosh',
  'coth',
  'cos',
  'cot',
  'csc',
  'deg',
  'det',
  'dim',
  'exp',
  'gcd',
  'hom',
  'inf',
  'ker',
  'lg',
  'liminf',
  'limsup',
  'lim',
  'ln',
  'log',
  'max',
  'min',
  'Pr',
  'sec',
  'sinh',
  'sin',
  'sup',
  'tanh',
  'tan',
];
const LIMIT_OPERATORS = new Set(['lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf', 'sum', 'prod', 'bigcup', 'bigcap', 'coprod']);
/** Followed by a space before their operand, after any limits: \sum_{i = 1}^{n} i, \sin x. */
const OPERATORS = new Set([
  ...LIMIT_OPERATORS,
  ...FUNCTION_NAMES,
  'int',
  'iint',
  'iiint',
  'oint',
  'bigoplus',
  'bigotimes',
  'bigvee',
  'bigwedge',
]);
/** Commands whose argument is text: printed as written, spaces included. */
const TEXT_MACROS = new Set(['text', 'textrm', 'textit', 'textbf', 'mbox', 'operatorname', 'mathrm', 'label', 'tag']);

type Kind = 'start' | 'open' | 'op' | 'atom';

/**
 * LaTeX math in one canonical spelling: whitespace collapsed, one space around binary operators
 * and relations (none after a unary minus), scripts and arguments always braced, synonyms replaced
 * (\le -> \leq, \to -> \rightarrow, \dfrac -> \frac, ...), `{a \over b}` as \frac{a}{b},
 * `\underset{x \to 0}{\lim}` as \lim_{x \rightarrow 0}. \left/\right pairs and every other command
 * stay as written. Parsing is unified-latex's; this only prints its syntax tree.
 */
export function normalizeLatex(latex: string): string {
  // A synonym's arguments are attached only once it has its canonical name (\dfrac12 -> \frac12 ->
  // \frac{1}{2}), so print until nothing changes; two or three rounds.
  let out = latex;
  for (let round = 0; round < 4; round++) {
    const next = print(parseMath(out)).trim();
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Bare operator names (`sin x`, from MathML and PDF text) written as commands (`\sin x`). */
export function commandifyFunctionNames(latex: string): string {
  const names = FUNCTION_NAMES.join('|');
  return latex.replace(new RegExp(`(?<![\\\\A-Za-z])(${names})(?![A-Za-z])`, 'g'), '\\$1');
}

function print(nodes: Ast.Node[]): string {
  const seq = rewriteOver(nodes.filter((n) => n.type !== 'whitespace' && n.type !== 'comment' && n.type !== 'parbreak'));
  let out = '';
  let kind: Kind = 'start';
  let afterOperator = false;
  const emit = (piece: string, next: Kind, spaced = false) => {
    if (!piece) return;
    const script = piece.startsWith('^') || piece.startsWith('_');
    if (spaced && kind !== 'start' && kind !== 'open' && kind !== 'op') {
      out = out.trimEnd() + ` ${piece} `;
    } else {
      if (afterOperator && !script && next === 'atom') out += ' ';
      // A control word followed by a letter needs its separating space: \pi r, not \pir.
      if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(piece)) out += ' ';
      out += piece;
    }
    if (!script) afterOperator = false;
    kind = next;
  };
  for (let i = 0; i < seq.length; i++) {
    let node = seq[i];
    switch (node.type) {
      case 'string':
        if ((node.content === '^' || node.content === '_') && i + 1 < seq.length) {
          const next = seq[++i];
          emit(`${node.content}{${next.type === 'group' ? print(next.content) : print([next])}}`, 'atom');
        } else if (SPACED_STRINGS.has(node.content)) emit(node.content, 'op', true);
        else if (node.content === '&') emit(' & ', 'open');
        else if ('([{'.includes(node.content) || node.content === ',' || node.content === ';') emit(node.content, 'open');
        else emit(node.content, 'atom');
        break;
      case 'macro': {
        // The parser leaves some scripts and \underset arguments unattached: attach them here.
        if ((node.content === '^' || node.content === '_') && !node.args?.length && i + 1 < seq.length) {
          const next = seq[++i];
          emit(`${node.content}{${next.type === 'group' ? print(next.content) : print([next])}}`, 'atom');
          break;
        }
        if ((node.content === 'underset' || node.content === 'overset') && !node.args?.length) {
          const groups = seq.slice(i + 1, i + 3);
          if (groups.length === 2 && groups.every((g) => g.type === 'group')) {
            node = {
              ...node,
              args: groups.map((g) => ({ type: 'argument', content: (g as Ast.Group).content, openMark: '{', closeMark: '}' })),
            };
            i += 2;
          }
        }
        const rewritten = rewriteScriptedOperator(node);
        if (rewritten) {
          emit(rewritten, 'atom');
          afterOperator = true;
          break;
        }
        const name = CANONICAL[node.content] ?? node.content;
        // A cross-reference anchor, not part of the formula.
        if (name === 'label') break;
        if (name === '\\') {
          emit(' \\\\ ', 'open');
          break;
        }
        const text = macro(node, name);
        // An operator name after an operand is set apart from it too: 2 \sin x.
        if (OPERATORS.has(name) && (kind as Kind) === 'atom' && !out.endsWith(' ')) out += ' ';
        if (SPACED_MACROS.has(name)) emit(text, 'op', true);
        else if (name === 'left' || name === '{' || /^(big|Big|bigg|Bigg)l?$/.test(name)) emit(text, 'open');
        else emit(text, 'atom');
        if (OPERATORS.has(name)) afterOperator = true;
        break;
      }
      case 'group': {
        const inner = rewriteOver(node.content.filter((n) => n.type !== 'whitespace'));
        // {a \over b} became \frac{a}{b}: its braces are no longer needed.
        const bare = inner.length === 1 && inner !== node.content && inner[0].type === 'macro';
        emit(bare ? print(inner) : `{${reparse(node.content)}}`, 'atom');
        break;
      }
      case 'environment':
      case 'mathenv': {
        const args = (node.args ?? []).map(arg).join('');
        emit(`\\begin{${envName(node)}}${args} ${print(node.content)} \\end{${envName(node)}}`.replace(/\s+\\end/, ' \\end'), 'atom');
        break;
      }
      case 'inlinemath':
        emit(`$${print(node.content)}$`, 'atom');
        break;
      case 'displaymath':
        emit(`\\[${print(node.content)}\\]`, 'atom');
        break;
      default:
        emit(printRaw(node), 'atom');
    }
  }
  return out.replace(/ {2,}/g, ' ');
}

function envName(node: Ast.Environment): string {
  return typeof node.env === 'string' ? node.env : printRaw(node.env);
}

function macro(node: Ast.Macro, name: string): string {
  const escape = node.escapeToken ?? '\\';
  if (TEXT_MACROS.has(name)) return `${escape}${name}${(node.args ?? []).map((a) => printRaw(a)).join('')}`;
  const args = (node.args ?? []).map(arg).join('');
  // Scripts always braced: x^{2}, not x^2.
  return `${escape}${name}${args}`;
}

function arg(a: Ast.Argument): string {
  if (!a.openMark && !a.closeMark && a.content.length === 0) return '';
  return `${a.openMark}${reparse(a.content)}${a.closeMark}`;
}

/** The parser leaves some arguments' content untokenised (`x^2` as one string): parse it again. */
function reparse(content: Ast.Node[]): string {
  return print(parseMath(printRaw(content)));
}

/** `a \over b` and `n \choose k` within a group or formula: infix forms of \frac and \binom. */
function rewriteOver(seq: Ast.Node[]): Ast.Node[] {
  const at = seq.findIndex((n) => n.type === 'macro' && (n.content === 'over' || n.content === 'choose'));
  if (at < 0) return seq;
  const op = seq[at] as Ast.Macro;
  const side = (content: Ast.Node[]): Ast.Argument => ({ type: 'argument', content, openMark: '{', closeMark: '}' });
  const frac: Ast.Macro = {
    type: 'macro',
    content: op.content === 'over' ? 'frac' : 'binom',
    args: [side(seq.slice(0, at)), side(seq.slice(at + 1))],
  };
  return [frac];
}

/** `\underset{x \to 0}{\lim}` (what MathML converters emit) as `\lim_{x \rightarrow 0}`. */
function rewriteScriptedOperator(node: Ast.Macro): string | undefined {
  if ((node.content !== 'underset' && node.content !== 'overset') || node.args?.length !== 2) return undefined;
  const [script, base] = node.args;
  const body = base.content.filter((n) => n.type !== 'whitespace');
  if (body.length !== 1 || body[0].type !== 'macro' || !LIMIT_OPERATORS.has(body[0].content) || body[0].args?.length) return undefined;
  return `\\${body[0].content}${node.content === 'underset' ? '_' : '^'}{${print(script.content)}}`;
}

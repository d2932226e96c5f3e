import type { Element } from '@xmldom/xmldom';
import { childElements, textOf } from './xml';

/**
 * A linear plain-text reading of presentation MathML, close to what a PDF shows and what a person
 * would type: x^2 + y^2 = z^2, (-b ± √(b^2 - 4ac))/(2a), ∑_(i = 1)^n i, (a, b; c, d) for a matrix.
 * Symbols stay Unicode (α, ≤, ∑, √, ℝ); the minus sign is ASCII so that text search finds it.
 * Chosen over a spoken reading ("x squared plus ...") because it is compact, unambiguous and
 * matches the document's own text.
 */
export function mathmlToText(math: Element): string {
  return tidy(render(math)).normalize('NFC');
}

const SPACED = new Set([
  '+',
  '-',
  '=',
  '<',
  '>',
  '±',
  '∓',
  '×',
  '÷',
  '·',
  '⋅',
  '∗',
  '∘',
  '≤',
  '≥',
  '≠',
  '≈',
  '≡',
  '∼',
  '≃',
  '≅',
  '∝',
  '∈',
  '∉',
  '∋',
  '⊂',
  '⊆',
  '⊃',
  '⊇',
  '∪',
  '∩',
  '∖',
  '∧',
  '∨',
  '→',
  '←',
  '↔',
  '⇒',
  '⇐',
  '⇔',
  '⟶',
  '⟹',
  '⟺',
  '↦',
  '≪',
  '≫',
  '≺',
  '≻',
  '⊥',
  '∥',
  '∣',
  '⊕',
  '⊗',
  '≔',
]);
const LARGE_OPERATORS = /^[∑∏∐∫∬∭∮⋃⋂⨁⨂⋁⋀]$|^(lim|max|min|sup|inf|liminf|limsup)$/;
/** Combining forms of accents, so that x with a hat reads x̂. */
const ACCENTS: Record<string, string> = {
  '^': '\u0302',
  ˆ: '\u0302',
  '\u0302': '\u0302',
  '~': '\u0303',
  '˜': '\u0303',
  '\u0303': '\u0303',
  '¯': '\u0304',
  '‾': '\u0305',
  '\u0304': '\u0304',
  '\u0305': '\u0305',
  '˙': '\u0307',
  '\u0307': '\u0307',
  '¨': '\u0308',
  '\u0308': '\u0308',
  '→': '\u20d7',
  '\u20d7': '\u20d7',
  ˇ: '\u030c',
  '˘': '\u0306',
  '´': '\u0301',
  '`': '\u0300',
};
/** Function application: a space between a function name and its argument, none before a parenthesis. */
const APPLY = '\u2061';

function render(el: Element): string {
  const kids = childElements(el);
  switch (el.localName) {
    case 'mi':
    case 'mn':
      // Mathematical alphanumerics (𝐱, 𝑥) to plain letters; ℝ and friends stay.
      return textOf(el)
        .trim()
        .replace(/[\u{1d400}-\u{1d7ff}]/gu, (c) => c.normalize('NFKC'))
        .replace(/\u2212/g, '-');
    case 'mtext':
    case 'ms':
      return textOf(el).replace(/\s+/g, ' ');
    case 'mo':
      return operator(textOf(el).trim());
    case 'mspace': {
      const width = parseFloat(el.getAttribute('width') ?? '');
      return width > 0 ? ' ' : '';
    }
    case 'mfrac': {
      // Without a bar it is a stack (a binomial coefficient, mostly): UnicodeMath writes n¦k.
      const bar = el.getAttribute('linethickness');
      return `${fraction(kids[0])}${bar && parseFloat(bar) === 0 ? '¦' : '/'}${fraction(kids[1])}`;
    }
    case 'msqrt':
      // The children form one implied row.
      return `√${wrap(el, 'mrow')}`;
    case 'mroot': {
      const index = tidy(render(kids[1]));
      const root = { '2': '√', '3': '∛', '4': '∜' }[index];
      return root ? `${root}${wrap(kids[0])}` : `${wrap(kids[0])}^(1/${index})`;
    }
    case 'msup':
      return operand(kids[0], `${wrap(kids[0])}^${wrap(kids[1])}`);
    case 'msub':
      return operand(kids[0], `${wrap(kids[0])}_${wrap(kids[1])}`);
    case 'msubsup':
      return operand(kids[0], `${wrap(kids[0])}_${wrap(kids[1])}^${wrap(kids[2])}`);
    case 'mover':
    case 'munder':
    case 'munderover':
      return underOver(el, kids);
    case 'mmultiscripts':
      return `${wrap(kids[0])}${kids.length > 2 ? `_${wrap(kids[1])}^${wrap(kids[2])}` : ''}`;
    case 'mtable':
      return kids.map(tableRow).join('; ');
    case 'mfenced': {
      const open = el.getAttribute('open') ?? '(';
      const close = el.getAttribute('close') ?? ')';
      const sep = (el.getAttribute('separators') ?? ',').trim().charAt(0) || ',';
      return `${open}${kids.map((k) => tidy(render(k))).join(`${sep} `)}${close}`;
    }
    case 'mphantom':
    case 'annotation':
    case 'annotation-xml':
      return '';
    case 'semantics':
      return kids.length ? render(kids[0]) : '';
    case 'merror':
      return textOf(el);
    default:
      // math, mrow, mstyle, mpadded, menclose, mtd, ... and unknown elements: their children in order.
      return row(kids);
  }
}

/**
 * Cells separated by commas, except where a cell begins with a relation or an operator: that is an
 * alignment point (a &= b), not a new column.
 */
function tableRow(tr: Element): string {
  const cells = childElements(tr)
    .map((td) => tidy(render(td)))
    .filter(Boolean);
  return cells.reduce((line, cell) => (!line ? cell : SPACED.has(cell.split(' ')[0]) ? `${line} ${cell}` : `${line}, ${cell}`), '');
}

function row(kids: Element[]): string {
  const text = kids.map(render).join('');
  // cases and similar: an opening brace whose closing side is invisible. Close it, so that the text stays balanced.
  const first = kids[0];
  const last = kids[kids.length - 1];
  const fence = (el: Element | undefined) => !!el && el.localName === 'mo' && el.getAttribute('fence') === 'true';
  if (kids.length > 1 && fence(first) && textOf(first).trim() === '{' && !(fence(last) && textOf(last).trim())) return `${text}}`;
  return text;
}

function operator(op: string): string {
  if (op === '\u2062' || op === '\u2063' || op === '\u2064' || op === '') return '';
  if (op === APPLY) return APPLY;
  const o = op === '\u2212' ? '-' : op;
  if (SPACED.has(o)) return ` ${o} `;
  if (o === ',' || o === ';') return `${o} `;
  return o;
}

function underOver(el: Element, kids: Element[]): string {
  const baseText = tidy(render(kids[0]));
  const accent = el.localName === 'mover' && kids[1] && ACCENTS[textOf(kids[1]).trim()];
  if (accent && el.getAttribute('accent') !== 'false') return `${baseText}${accent}`;
  if (el.localName === 'munder' && kids[1] && /^[_‾̲]$/.test(textOf(kids[1]).trim())) return baseText;
  const [under, over] = el.localName === 'mover' ? [undefined, kids[1]] : [kids[1], kids[2]];
  // ∑ with limits below and above reads like scripts; other stacked forms the same way.
  const b = LARGE_OPERATORS.test(baseText) ? baseText : wrap(kids[0]);
  return operand(kids[0], `${b}${under ? `_${wrap(under)}` : ''}${over ? `^${wrap(over)}` : ''}`);
}

/** A large operator with its limits is followed by a space before what it applies to: ∑_(i = 1)^n i. */
function operand(baseEl: Element | undefined, text: string): string {
  return baseEl && LARGE_OPERATORS.test(tidy(render(baseEl))) ? `${text} ` : text;
}

/** One token: an identifier, a number, an operator, or a row holding just one of them. */
function isToken(el: Element): boolean {
  if (['mi', 'mn', 'mo', 'mtext'].includes(el.localName ?? '')) return true;
  return ['mrow', 'mstyle', 'mpadded'].includes(el.localName ?? '') && isTokenRow(childElements(el));
}

function isTokenRow(kids: Element[]): boolean {
  // Struts and zero-width spaces (Temml puts one under every radical) do not count.
  const visible = kids.filter((k) => !(k.localName === 'mspace' && !(parseFloat(k.getAttribute('width') ?? '') > 0)));
  return visible.length === 1 && isToken(visible[0]);
}

/** A base or script: parenthesised unless it is one token or already bracketed, so that e^(iπ) is not e^iπ. */
function wrap(el: Element | undefined, as?: 'mrow'): string {
  if (!el) return '';
  const t = tidy(as ? row(childElements(el)) : render(el));
  const token = as ? isTokenRow(childElements(el)) : isToken(el);
  return token || !t || isWrapped(t) ? t : `(${t})`;
}

/** A numerator or denominator: as wrap(), and a script term such as x^k stays bare; (2a) does not. */
function fraction(el: Element | undefined): string {
  if (!el) return '';
  const t = tidy(render(el));
  const scripted = ['msup', 'msub', 'msubsup'].includes(el.localName ?? '') && !t.includes(' ');
  return isToken(el) || scripted || !t || isWrapped(t) ? t : `(${t})`;
}

function isWrapped(t: string): boolean {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}', '⟨': '⟩', '|': '|' };
  const close = pairs[t[0]];
  if (!close || t[t.length - 1] !== close) return false;
  // The first bracket must close at the very end: (a)(b) is not wrapped.
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === t[0] && (t[0] !== '|' || i === 0)) depth++;
    else if (t[i] === close) depth--;
    if (depth === 0 && i < t.length - 1) return false;
  }
  return true;
}

function tidy(text: string): string {
  return text
    .replace(new RegExp(`${APPLY}(?=[(\\[])`, 'g'), '')
    .replace(new RegExp(APPLY, 'g'), ' ')
    .replace(/\s+/g, ' ')
    .replace(/([([{⟨]) /g, '$1')
    .replace(/ ([)\]}⟩,;])/g, '$1')
    .trim()
    .replace(/(^|[([{,;=<>≤≥] ?)- /g, '$1-');
}

import type { Element } from '@xmldom/xmldom';
import { FUNCTION_NAMES } from './latex-normalize';
import { childElements, OMML_NS, textOf } from './xml';

/**
 * Office Math (OMML, the m: elements of a docx) to presentation MathML, element by element.
 *
 * Written here rather than taken from npm: the one converter there, omml2mathml (a port of
 * Microsoft's OMML2MML.XSL), was last released in 2017 and builds its output with jsdom 9, whose
 * dependency tree (request, old tough-cookie) we will not ship. OMML is a small, closed vocabulary
 * (ECMA-376 Part 1, 22.1): runs, fractions, scripts, radicals, n-ary operators, delimiters,
 * matrices, functions, accents, bars, group characters, limits, equation arrays and boxes.
 */
export function ommlToMathML(root: Element): string {
  const display = root.localName === 'oMathPara' ? ' display="block"' : '';
  return `<math xmlns="http://www.w3.org/1998/Math/MathML"${display}>${convert(root)}</math>`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const mrow = (inner: string) => `<mrow>${inner}</mrow>`;
const mo = (op: string, attrs = '') => (op ? `<mo${attrs}>${esc(op)}</mo>` : '');

/** m: children of an element, skipping properties and anything outside the math namespace. */
function parts(el: Element): Element[] {
  return childElements(el).filter((c) => c.namespaceURI === OMML_NS && !(c.localName ?? '').endsWith('Pr'));
}

function child(el: Element, name: string): Element | undefined {
  return childElements(el).find((c) => c.namespaceURI === OMML_NS && c.localName === name);
}

/** The m:val of a property, e.g. prop(el, 'fPr', 'type'); `undefined` when absent. */
function prop(el: Element, pr: string, name: string): string | undefined {
  const p = child(el, pr);
  const v = p && child(p, name);
  if (!v) return undefined;
  return v.getAttributeNS(OMML_NS, 'val') || v.getAttribute('m:val') || '';
}

/** OMML on/off properties: present without a value means on. */
function on(value: string | undefined): boolean {
  return value !== undefined && !['0', 'off', 'false'].includes(value);
}

function content(el: Element | undefined): string {
  return el ? mrow(parts(el).map(convert).join('')) : '<mrow></mrow>';
}

function convert(el: Element): string {
  switch (el.localName) {
    case 'oMathPara':
    case 'oMath':
      return parts(el).map(convert).join('');
    case 'r':
      return run(el);
    case 'f': {
      const type = prop(el, 'fPr', 'type');
      const [num, den] = [content(child(el, 'num')), content(child(el, 'den'))];
      if (type === 'lin') return mrow(`${num}<mo>/</mo>${den}`);
      return `<mfrac${type === 'noBar' ? ' linethickness="0"' : ''}>${num}${den}</mfrac>`;
    }
    case 'sSup':
      return `<msup>${content(child(el, 'e'))}${content(child(el, 'sup'))}</msup>`;
    case 'sSub':
      return `<msub>${content(child(el, 'e'))}${content(child(el, 'sub'))}</msub>`;
    case 'sSubSup':
      return `<msubsup>${content(child(el, 'e'))}${content(child(el, 'sub'))}${content(child(el, 'sup'))}</msubsup>`;
    case 'sPre':
      return mrow(`<msubsup><mrow></mrow>${content(child(el, 'sub'))}${content(child(el, 'sup'))}</msubsup>${content(child(el, 'e'))}`);
    case 'rad': {
      const deg = child(el, 'deg');
      const hidden = on(prop(el, 'radPr', 'degHide')) || !deg || !textOf(deg).trim();
      return hidden ? `<msqrt>${content(child(el, 'e'))}</msqrt>` : `<mroot>${content(child(el, 'e'))}${content(deg)}</mroot>`;
    }
    case 'nary':
      return nary(el);
    case 'd':
      return delimiter(el);
    case 'm':
      return `<mtable>${parts(el)
        .filter((r) => r.localName === 'mr')
        .map(
          (r) =>
            `<mtr>${parts(r)
              .map((cell) => `<mtd>${content(cell)}</mtd>`)
              .join('')}</mtr>`,
        )
        .join('')}</mtable>`;
    case 'eqArr':
      return `<mtable>${parts(el)
        .map((e) => `<mtr><mtd>${content(e)}</mtd></mtr>`)
        .join('')}</mtable>`;
    case 'func':
      return mrow(`${content(child(el, 'fName'))}<mo>&#x2061;</mo>${content(child(el, 'e'))}`);
    case 'acc': {
      const chr = prop(el, 'accPr', 'chr') ?? '\u0302';
      return `<mover accent="true">${content(child(el, 'e'))}${mo(spacingAccent(chr))}</mover>`;
    }
    case 'bar': {
      const top = prop(el, 'barPr', 'pos') === 'top';
      return top
        ? `<mover accent="true">${content(child(el, 'e'))}<mo>¯</mo></mover>`
        : `<munder>${content(child(el, 'e'))}<mo>_</mo></munder>`;
    }
    case 'groupChr': {
      const chr = prop(el, 'groupChrPr', 'chr') ?? '\u23df';
      const top = prop(el, 'groupChrPr', 'pos') === 'top';
      return top ? `<mover>${content(child(el, 'e'))}${mo(chr)}</mover>` : `<munder>${content(child(el, 'e'))}${mo(chr)}</munder>`;
    }
    case 'limLow':
      return `<munder>${content(child(el, 'e'))}${content(child(el, 'lim'))}</munder>`;
    case 'limUpp':
      return `<mover>${content(child(el, 'e'))}${content(child(el, 'lim'))}</mover>`;
    case 'box':
    case 'borderBox':
    case 'e':
      return content(el);
    case 'phant':
      return on(prop(el, 'phantPr', 'show') ?? '0') ? content(child(el, 'e')) : '';
    default:
      // Unknown or future elements: keep their content rather than lose the formula.
      return content(el);
  }
}

function nary(el: Element): string {
  const chr = prop(el, 'naryPr', 'chr') ?? '∫';
  const underOver = (prop(el, 'naryPr', 'limLoc') ?? (chr === '∫' ? 'subSup' : 'undOvr')) === 'undOvr';
  const sub = on(prop(el, 'naryPr', 'subHide')) ? undefined : child(el, 'sub');
  const sup = on(prop(el, 'naryPr', 'supHide')) ? undefined : child(el, 'sup');
  const op = mo(chr, ' largeop="true"');
  const hasSub = !!sub && !!textOf(sub).trim();
  const hasSup = !!sup && !!textOf(sup).trim();
  let head = op;
  if (hasSub && hasSup)
    head = underOver
      ? `<munderover>${op}${content(sub)}${content(sup)}</munderover>`
      : `<msubsup>${op}${content(sub)}${content(sup)}</msubsup>`;
  else if (hasSub) head = underOver ? `<munder>${op}${content(sub)}</munder>` : `<msub>${op}${content(sub)}</msub>`;
  else if (hasSup) head = underOver ? `<mover>${op}${content(sup)}</mover>` : `<msup>${op}${content(sup)}</msup>`;
  return mrow(`${head}${content(child(el, 'e'))}`);
}

function delimiter(el: Element): string {
  const beg = prop(el, 'dPr', 'begChr') ?? '(';
  const end = prop(el, 'dPr', 'endChr') ?? ')';
  const sep = prop(el, 'dPr', 'sepChr') ?? '|';
  const items = parts(el)
    .filter((c) => c.localName === 'e')
    .map(content);
  return mrow(`${mo(beg, ' fence="true"')}${items.join(mo(sep, ' separator="true"'))}${mo(end, ' fence="true"')}`);
}

/** OMML accents are combining characters; MathML wants the spacing forms. */
function spacingAccent(chr: string): string {
  const map: Record<string, string> = {
    '\u0302': 'ˆ',
    '\u0303': '˜',
    '\u0304': '¯',
    '\u0305': '¯',
    '\u0307': '˙',
    '\u0308': '¨',
    '\u20d7': '→',
    '\u030c': 'ˇ',
    '\u0306': '˘',
  };
  return map[chr] ?? chr;
}

const FUNCTION = new RegExp(`^(${FUNCTION_NAMES.join('|')})`);

/**
 * A run's text as MathML tokens: numbers, identifiers (one letter each, as in typeset math, but
 * operator names such as sin or lim kept whole) and operators. Normal-text runs (m:nor) are mtext.
 */
function run(el: Element): string {
  const text = childElements(el)
    .filter((c) => c.localName === 't')
    .map(textOf)
    .join('');
  if (!text) return '';
  if (on(prop(el, 'rPr', 'nor'))) return `<mtext>${esc(text)}</mtext>`;
  const plain = prop(el, 'rPr', 'sty') === 'p';
  let out = '';
  let rest = text;
  while (rest) {
    const fn = FUNCTION.exec(rest);
    const num = /^\d+(?:[.,]\d+)*/.exec(rest);
    const letter = /^\p{L}/u.exec(rest);
    if (fn && (plain || !/^\p{L}/u.test(rest.slice(fn[0].length)))) {
      out += `<mi>${fn[0]}</mi>`;
      rest = rest.slice(fn[0].length);
    } else if (num) {
      out += `<mn>${num[0]}</mn>`;
      rest = rest.slice(num[0].length);
    } else if (letter) {
      out += `<mi${plain ? ' mathvariant="normal"' : ''}>${esc(letter[0])}</mi>`;
      rest = rest.slice(letter[0].length);
    } else {
      const ch = String.fromCodePoint(rest.codePointAt(0)!);
      if (ch.trim()) out += mo(ch);
      rest = rest.slice(ch.length);
    }
  }
  return out;
}

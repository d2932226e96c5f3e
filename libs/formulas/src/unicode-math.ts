/**
 * Math as it comes out of a PDF's text layer — Unicode symbols, superscript digits, mathematical
 * italic letters — written as LaTeX, so that a PDF formula goes through the same parser as the others.
 */

const SYMBOLS: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ϵ: 'epsilon',
  ε: 'varepsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ϑ: 'vartheta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  µ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ϖ: 'varpi',
  ρ: 'rho',
  ϱ: 'varrho',
  σ: 'sigma',
  ς: 'varsigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'varphi',
  ϕ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
  Γ: 'Gamma',
  Δ: 'Delta',
  '∆': 'Delta',
  Θ: 'Theta',
  Λ: 'Lambda',
  Ξ: 'Xi',
  Π: 'Pi',
  Σ: 'Sigma',
  Υ: 'Upsilon',
  Φ: 'Phi',
  Ψ: 'Psi',
  Ω: 'Omega',
  '\u2126': 'Omega',
  '≤': 'leq',
  '⩽': 'leq',
  '≥': 'geq',
  '⩾': 'geq',
  '≠': 'neq',
  '±': 'pm',
  '∓': 'mp',
  '×': 'times',
  '÷': 'div',
  '·': 'cdot',
  '⋅': 'cdot',
  '∗': 'ast',
  '∘': 'circ',
  '∞': 'infty',
  '∑': 'sum',
  '∏': 'prod',
  '∐': 'coprod',
  '∫': 'int',
  '∬': 'iint',
  '∭': 'iiint',
  '∮': 'oint',
  '∂': 'partial',
  '∇': 'nabla',
  '∈': 'in',
  '∉': 'notin',
  '∋': 'ni',
  '⊂': 'subset',
  '⊆': 'subseteq',
  '⊃': 'supset',
  '⊇': 'supseteq',
  '∪': 'cup',
  '∩': 'cap',
  '∅': 'emptyset',
  '→': 'rightarrow',
  '←': 'leftarrow',
  '↔': 'leftrightarrow',
  '⇒': 'Rightarrow',
  '⇐': 'Leftarrow',
  '⇔': 'Leftrightarrow',
  '↦': 'mapsto',
  '⟶': 'longrightarrow',
  '≈': 'approx',
  '≡': 'equiv',
  '∼': 'sim',
  '≃': 'simeq',
  '≅': 'cong',
  '∝': 'propto',
  '∀': 'forall',
  '∃': 'exists',
  '¬': 'neg',
  '∧': 'wedge',
  '∨': 'vee',
  '∠': 'angle',
  '⊥': 'perp',
  '∥': 'parallel',
  '≪': 'll',
  '≫': 'gg',
  '∖': 'setminus',
  '⊕': 'oplus',
  '⊗': 'otimes',
  '…': 'ldots',
  '⋯': 'cdots',
  '⟨': 'langle',
  '⟩': 'rangle',
  '⌊': 'lfloor',
  '⌋': 'rfloor',
  '⌈': 'lceil',
  '⌉': 'rceil',
  ℓ: 'ell',
  ℏ: 'hbar',
  '‖': '|',
  '%': '%',
  '#': '#',
  '&': '&',
  '{': '{',
  '}': '}',
  $: '$',
};
const BLACKBOARD: Record<string, string> = { ℝ: 'R', ℕ: 'N', ℤ: 'Z', ℚ: 'Q', ℂ: 'C', ℙ: 'P' };
const OTHER: Record<string, string> = { '−': '-', '–': '-', '′': "'", '″': "''", '°': '^{\\circ}', '∣': '|', '∕': '/' };
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻ';
const SUPERSCRIPT_VALUES = '0123456789+-=()niabcdefghjklmoprstuvwxyz';
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ';
const SUBSCRIPT_VALUES = '0123456789+-=()aeoxhklmnpstijruv';

/** Adobe Symbol font: Latin letters stand for Greek ones when the PDF carries no Unicode mapping. */
const SYMBOL_FONT_LETTERS: Record<string, string> = Object.fromEntries(
  [...'abgdezhqiklmnxoprstufcywjv']
    .map((c, i) => [c, 'αβγδεζηθικλμνξοπρστυφχψωϕϖ'[i]])
    .concat([...'GDQLXPSUFYW'].map((c, i) => [c, 'ΓΔΘΛΞΠΣΥΦΨΩ'[i]])),
);

/** Font names of TeX and OpenType math fonts, and of the Symbol fonts. */
const MATH_FONT =
  /(^|[+\-,_ ])(CMMI|CMSY|CMEX|CMBSY|CMMIB|MSAM|MSBM|EUFM|EUSM|RSFS|LMMath|LatinModernMath|STIX|XITS|Asana|Cambria.?Math|TeXGyre\w*Math|Symbol|MT.?Extra|Euclid|MathematicalPi|NewCMMath|Fira.?Math|Libertinus.?Math)/i;
const MATH_CHARS = /[\u0370-\u03ff\u2200-\u22ff\u2070-\u209f\u2190-\u21ff\u27e8\u27e9\u{1d400}-\u{1d7ff}ℝℕℤℚℂ√∞±×÷]/u;

/** Whether a PDF text run looks like math: a math font, or math symbols in the text. */
export function isMathRun(text: string, fontName?: string): boolean {
  return (!!fontName && MATH_FONT.test(fontName)) || MATH_CHARS.test(text);
}

export function unicodeToLatex(text: string, fontName?: string): string {
  const symbolFont = !!fontName && /(^|[+\-,])Symbol/i.test(fontName);
  const chars = [...text];
  let out = '';
  const word = (command: string) => `\\${command} `;
  for (let i = 0; i < chars.length; i++) {
    let c = chars[i];
    if (symbolFont && SYMBOL_FONT_LETTERS[c]) c = SYMBOL_FONT_LETTERS[c];
    const sup = SUPERSCRIPTS.indexOf(c);
    const sub = SUBSCRIPTS.indexOf(c);
    if (sup >= 0 || sub >= 0) {
      const [set, values, mark] = sup >= 0 ? [SUPERSCRIPTS, SUPERSCRIPT_VALUES, '^'] : [SUBSCRIPTS, SUBSCRIPT_VALUES, '_'];
      let script = '';
      while (i < chars.length && set.includes(chars[i])) script += values[set.indexOf(chars[i++])];
      i--;
      out += `${mark}{${script}}`;
    } else if (c === '√' || c === '∛' || c === '∜') {
      const [arg, next] = radicand(chars, i + 1);
      out += c === '√' ? `\\sqrt{${unicodeToLatex(arg, fontName)}}` : `\\sqrt[${c === '∛' ? 3 : 4}]{${unicodeToLatex(arg, fontName)}}`;
      i = next - 1;
    } else if (BLACKBOARD[c]) {
      out += `\\mathbb{${BLACKBOARD[c]}}`;
    } else if (OTHER[c] !== undefined) {
      out += OTHER[c];
    } else if (SYMBOLS[c]) {
      out += SYMBOLS[c].length === 1 ? `\\${SYMBOLS[c]}` : word(SYMBOLS[c]);
    } else if (c === '\\') {
      out += word('backslash');
    } else if (c === '~') {
      out += word('sim');
    } else if (/[\u{1d400}-\u{1d7ff}]/u.test(c)) {
      // Mathematical italic, bold, ... letters and digits: their plain form.
      out += c.normalize('NFKC');
    } else {
      out += c;
    }
  }
  return out.trim();
}

/** What a radical sign covers: a parenthesised group, or the next number or letter run. */
function radicand(chars: string[], from: number): [string, number] {
  let i = from;
  while (i < chars.length && chars[i] === ' ') i++;
  if (chars[i] === '(') {
    let depth = 0;
    for (let j = i; j < chars.length; j++) {
      if (chars[j] === '(') depth++;
      else if (chars[j] === ')' && --depth === 0) return [chars.slice(i + 1, j).join(''), j + 1];
    }
    return [chars.slice(i + 1).join(''), chars.length];
  }
  let j = i;
  while (j < chars.length && /[\p{L}\p{N}.]/u.test(chars[j])) j++;
  if (j === i && i < chars.length) j = i + 1;
  return [chars.slice(i, j).join(''), j];
}

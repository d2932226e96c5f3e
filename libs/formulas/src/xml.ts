import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';

export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
export const OMML_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

const WORDML_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * Parses XML, or returns why it is not well-formed. The usual prefixes of Office and MathML are
 * known in advance, so that a fragment cut out of document.xml (`<m:oMath>` without the xmlns of
 * its document) still parses.
 */
export function parseXml(xml: string, mimeType: 'text/xml' | 'text/html' = 'text/xml'): { doc: Document } | { error: string } {
  let problem: string | undefined;
  try {
    const doc = new DOMParser({
      xmlns: { m: OMML_NS, w: WORDML_NS, mml: MATHML_NS },
      onError: (level, message) => {
        if (level !== 'warning') problem ??= message;
      },
    }).parseFromString(xml, mimeType);
    if (problem) return { error: firstLine(problem) };
    if (!doc.documentElement) return { error: 'no root element' };
    return { doc };
  } catch (err) {
    return { error: firstLine(problem ?? (err as Error).message) };
  }
}

function firstLine(message: string): string {
  return message
    .split('\n')[0]
    .replace(/^\[xmldom [a-z]+\]\s*/i, '')
    .trim();
}

export function isElement(node: Node | null | undefined): node is Element {
  return !!node && node.nodeType === ELEMENT_NODE;
}

export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (isElement(n)) out.push(n);
  return out;
}

/** Text of an element and its descendants. */
export function textOf(node: Node): string {
  if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) return node.nodeValue ?? '';
  let s = '';
  for (let n = node.firstChild; n; n = n.nextSibling) s += textOf(n);
  return s;
}

/** The first element (the root included) whose local name is `name`, in any namespace or none. */
export function findElement(root: Element, name: string): Element | undefined {
  if (root.localName === name) return root;
  for (const child of childElements(root)) {
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}

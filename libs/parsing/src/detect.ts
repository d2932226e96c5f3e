import * as CFB from 'cfb';
import { fromBuffer } from 'file-type';
import { extname } from 'node:path';
import { ParseError, encrypted } from './errors';
import { FormatFamily, SUPPORTED_EXTENSIONS, SupportedExtension } from './model';
import { looksLikeText } from './support/decode';

export interface DetectedFormat {
  family: FormatFamily;
  extension: SupportedExtension;
  mediaType: string;
}

const MEDIA_TYPES: Record<SupportedExtension, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  json: 'application/json',
  xml: 'application/xml',
};

const FAMILY: Record<SupportedExtension, FormatFamily> = {
  pdf: 'pdf',
  txt: 'text',
  html: 'html',
  htm: 'html',
  doc: 'doc',
  docx: 'docx',
  csv: 'csv',
  xlsx: 'spreadsheet',
  xls: 'spreadsheet',
  ods: 'spreadsheet',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  webp: 'image',
  bmp: 'image',
  tiff: 'image',
  json: 'json',
  xml: 'xml',
};

const TEXT_FAMILIES = new Set<FormatFamily>(['text', 'csv', 'html', 'xml', 'json']);

/** The extension of a file name if it is one of the 18 supported ones (`.tif` counts as tiff). */
export function supportedExtension(fileName: string): SupportedExtension | undefined {
  let ext = extname(fileName).slice(1).toLowerCase();
  if (ext === 'tif') ext = 'tiff';
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(ext) ? (ext as SupportedExtension) : undefined;
}

export function isSupportedFileName(fileName: string): boolean {
  return supportedExtension(fileName) !== undefined;
}

/** A declared media type stands in for a missing or unknown extension. */
function extensionOfMediaType(mediaType: string | undefined): SupportedExtension | undefined {
  const bare = mediaType?.split(';')[0].trim().toLowerCase();
  if (!bare) return undefined;
  if (bare === 'text/xml') return 'xml';
  return (Object.keys(MEDIA_TYPES) as SupportedExtension[]).find((ext) => MEDIA_TYPES[ext] === bare);
}

function format(extension: SupportedExtension): DetectedFormat {
  return { family: FAMILY[extension], extension, mediaType: MEDIA_TYPES[extension] };
}

/** Keeps the user's spelling (jpg/jpeg, htm/html) when it names the same type as the content. */
function preferNamed(detected: SupportedExtension, named: SupportedExtension | undefined): DetectedFormat {
  if (named && MEDIA_TYPES[named] === MEDIA_TYPES[detected]) return format(named);
  return format(detected);
}

/**
 * Detects the real type of a document from its content (magic bytes, container entries, text
 * sniffing) and falls back to the extension only where content cannot tell (text formats).
 * Throws a ParseError for empty files, unsupported content and encrypted Office containers.
 */
export async function detectFormat(bytes: Buffer, fileName: string, mediaType?: string): Promise<DetectedFormat> {
  const named = supportedExtension(fileName) ?? extensionOfMediaType(mediaType);
  if (bytes.length === 0) throw new ParseError('EMPTY', 'The file is empty.');

  // A PDF header may follow some junk bytes; readers accept it within the first kilobyte.
  if (bytes.subarray(0, 1024).includes('%PDF-')) return format('pdf');

  // UTF-16 text can look like binary magic (MPEG frame sync): text with a BOM or a UTF-16 shape is text.
  if (hasTextBom(bytes) || (looksLikeText(bytes) && bytes.subarray(0, 512).includes(0))) return detectText(bytes, named);

  const sniffed = await fromBuffer(bytes);
  if (sniffed && !SUPPORTED_MAGIC.has(sniffed.ext) && looksLikeText(bytes)) return detectText(bytes, named);
  if (sniffed) {
    switch (sniffed.ext) {
      case 'jpg':
      case 'png':
      case 'webp':
      case 'bmp':
        return preferNamed(sniffed.ext, named);
      case 'tif':
        return format('tiff');
      case 'docx':
      case 'xlsx':
        return format(sniffed.ext);
      case 'cfb':
        return detectCompoundFile(bytes, named);
      case 'zip':
        if (named === 'docx' || named === 'xlsx' || named === 'ods') return format(named);
        throw unsupported('a ZIP archive', named);
      case 'xml':
        if (named && TEXT_FAMILIES.has(FAMILY[named])) return format(named);
        return format('xml');
      default:
        if (sniffed.mime === 'application/vnd.oasis.opendocument.spreadsheet') return format('ods');
        throw unsupported(`of type ${sniffed.mime}`, named);
    }
  }

  if (looksLikeText(bytes)) return detectText(bytes, named);
  if (named && !TEXT_FAMILIES.has(FAMILY[named])) {
    throw new ParseError('CORRUPT', `The file is truncated or corrupt: its content is not a valid .${named} file.`);
  }
  throw unsupported('binary data of an unknown type', named);
}

const SUPPORTED_MAGIC = new Set(['jpg', 'png', 'webp', 'bmp', 'tif', 'docx', 'xlsx', 'cfb', 'zip', 'xml', 'ods']);

function hasTextBom(b: Buffer): boolean {
  return (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) || (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff);
}

function unsupported(what: string, named: SupportedExtension | undefined): ParseError {
  const suffix = named ? ` although its name ends in .${named}` : '';
  return new ParseError('UNSUPPORTED_FORMAT', `The file content is ${what}${suffix}, which is not a supported format.`);
}

/** OLE2 compound files hold legacy Word and Excel documents, and also encrypted OOXML packages. */
function detectCompoundFile(bytes: Buffer, named: SupportedExtension | undefined): DetectedFormat {
  let names: string[];
  try {
    names = CFB.read(bytes, { type: 'buffer' }).FullPaths.map((p) => p.split('/').filter(Boolean).pop() ?? '');
  } catch {
    throw new ParseError('CORRUPT', 'The file is truncated or corrupt: the Office compound file cannot be read.');
  }
  const has = (n: string) => names.some((x) => x.toLowerCase() === n.toLowerCase());
  if (has('EncryptedPackage')) {
    throw encrypted(named === 'xlsx' ? 'workbook' : named === 'docx' ? 'Word document' : 'Office document');
  }
  if (has('WordDocument')) return format('doc');
  if (has('Workbook') || has('Book')) return format('xls');
  throw unsupported('an Office compound file that is neither a Word nor an Excel document', named);
}

function detectText(bytes: Buffer, named: SupportedExtension | undefined): DetectedFormat {
  const head = bytes
    .subarray(0, 4096)
    .toString(bytes[0] === 0xff || bytes[1] === 0 ? 'utf16le' : 'utf8')
    .replace(/^\ufeff/, '')
    .trimStart()
    .toLowerCase();
  const looksHtml = /^(<!doctype html|<html|<head|<body)/.test(head) || (/^<!--/.test(head) && /<html/.test(head));
  if (named && TEXT_FAMILIES.has(FAMILY[named])) {
    // The extension names a text format and the content is text: trust it, except for HTML saved as .txt/.xml.
    if (looksHtml && named !== 'xml' && named !== 'html' && named !== 'htm') return format('html');
    return format(named);
  }
  if (named) {
    throw new ParseError('CORRUPT', `The file is truncated or corrupt: it holds plain text, not a valid .${named} file.`);
  }
  if (looksHtml) return format('html');
  if (head.startsWith('<?xml') || /^<[a-z_][\w:.-]*[\s>]/.test(head)) return format('xml');
  if (head.startsWith('{') || head.startsWith('[')) return format('json');
  return format('txt');
}

export { MEDIA_TYPES };

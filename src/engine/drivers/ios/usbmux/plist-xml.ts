/**
 * XML property lists as usbmuxd exchanges them: it parses requests with libplist's plist_from_xml
 * and answers with plist_to_xml (libimobiledevice usbmuxd client.c; Apple's usbmuxd speaks the same).
 */
import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';

export type PlistValue = string | number | boolean | Buffer | PlistValue[] | { [key: string]: PlistValue };
export type PlistDict = { [key: string]: PlistValue };

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A flat dictionary of strings and integers: every request the relay sends is one. */
export function plistXml(dict: Record<string, string | number>): string {
  const items = Object.entries(dict).map(([key, value]) => {
    const element = typeof value === 'number' ? `<integer>${Math.trunc(value)}</integer>` : `<string>${escapeXml(value)}</string>`;
    return `\t<key>${escapeXml(key)}</key>\n\t${element}\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
    `<plist version="1.0">\n<dict>\n${items.join('')}</dict>\n</plist>\n`
  );
}

/** fast-xml-parser's order-preserving shape: one tag name (plus ':@' attributes) → its children, or '#text'. */
type OrderedNode = Record<string, unknown>;

let parser: XMLParser | undefined;
function orderedParser(): XMLParser {
  if (parser) return parser;
  // Loaded on first use: only real iPhones need it, and the library costs start-up time.
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  return (parser = new Parser({ preserveOrder: true, ignoreAttributes: true, parseTagValue: false, trimValues: false }));
}

const tagOf = (node: OrderedNode): string | undefined => Object.keys(node).find((k) => k !== ':@');
/** Element children, without the whitespace text between them. */
const elements = (children: OrderedNode[]): OrderedNode[] => children.filter((c) => !('#text' in c));
const textOf = (children: OrderedNode[]): string => children.map((c) => String(c['#text'] ?? '')).join('');

function valueOf(node: OrderedNode): PlistValue {
  const tag = tagOf(node);
  const children = (tag ? node[tag] : []) as OrderedNode[];
  switch (tag) {
    case 'dict': {
      const items = elements(children);
      const dict: PlistDict = {};
      for (let i = 0; i + 1 < items.length; i += 2) {
        if (tagOf(items[i]) !== 'key') throw new Error(`a plist dict holds <${tagOf(items[i])}> where a <key> belongs`);
        dict[textOf(items[i].key as OrderedNode[])] = valueOf(items[i + 1]);
      }
      if (items.length % 2) throw new Error('a plist dict ends with a key without a value');
      return dict;
    }
    case 'array':
      return elements(children).map(valueOf);
    case 'string':
    case 'date':
      return textOf(children);
    case 'integer':
    case 'real': {
      const n = Number(textOf(children).trim());
      if (!Number.isFinite(n)) throw new Error(`a plist <${tag}> holds "${textOf(children)}"`);
      return n;
    }
    case 'true':
      return true;
    case 'false':
      return false;
    case 'data':
      return Buffer.from(textOf(children).replace(/\s/g, ''), 'base64');
    default:
      throw new Error(`unknown plist element <${tag}>`);
  }
}

/** The top-level dictionary of an XML plist; throws saying what is wrong with anything else. */
export function parsePlistDict(xml: string): PlistDict {
  const root = (orderedParser().parse(xml) as OrderedNode[]).find((n) => tagOf(n) === 'plist');
  if (!root) throw new Error('no <plist> element');
  const [top] = elements(root.plist as OrderedNode[]);
  const value = top ? valueOf(top) : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Buffer.isBuffer(value)) throw new Error('the plist is not a dictionary');
  return value;
}

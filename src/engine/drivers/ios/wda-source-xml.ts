import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';

import { ToolError } from '../../errors.js';
import type { WdaNode } from './wda-source.js';

/*
 * GET /source?format=xml (FBXPath.m xmlStringWithRootElement): one element per node, named by its XCUIElementType,
 * with the attributes type, value, name, label, enabled, visible, accessible, x, y, width, height, index (and
 * placeholderValue, hittable when asked, bundleId and processId on the application since September 2025), booleans
 * as "true"/"false". `name` is wdName, the identifier when the element has one, else its label.
 */

type Ordered = Record<string, unknown>;

let parser: XMLParser | undefined;
function xmlParser(): XMLParser {
  if (parser) return parser;
  // Loaded on first use: only WebDriverAgents that serve no JSON tree need it.
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  // libxml2 writes a newline, carriage return or tab in an attribute as a character reference (&#10;, &#13;, &#9;),
  // which only htmlEntities makes the parser turn back.
  return (parser = new Parser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, parseTagValue: false, htmlEntities: true }));
}

const tagOf = (node: Ordered): string | undefined => Object.keys(node).find((k) => k !== ':@' && k !== '#text' && !k.startsWith('?'));

function toNode(element: Ordered, tag: string): WdaNode & { bundleId?: string } {
  const a = (element[':@'] ?? {}) as Record<string, string>;
  const number = (key: string) => {
    const n = Number(a[key]);
    if (!Number.isFinite(n)) throw new ToolError('INTERNAL', `WebDriverAgent /source?format=xml has a <${tag}> without a numeric ${key} (${JSON.stringify(a[key] ?? null)})`);
    return n;
  };
  const name = a.name ?? null;
  const label = a.label ?? null;
  const children = ((element[tag] ?? []) as Ordered[]).flatMap((c) => {
    const t = tagOf(c);
    return t ? [toNode(c, t)] : [];
  });
  return {
    type: (a.type ?? tag).replace(/^XCUIElementType/, ''),
    // wdName is the identifier when there is one: a name unlike the label can only be that.
    rawIdentifier: name !== null && name !== label ? name : null,
    name,
    value: a.value ?? null,
    label,
    placeholderValue: a.placeholderValue ?? null,
    rect: { x: number('x'), y: number('y'), width: number('width'), height: number('height') },
    isEnabled: a.enabled,
    isVisible: a.visible,
    isAccessible: a.accessible,
    ...(a.hittable === undefined ? {} : { isHittable: a.hittable }),
    ...(a.bundleId ? { bundleId: a.bundleId } : {}),
    children,
  };
}

/** The tree of an XML source as the JSON tree's nodes (wda-source.ts), so the two read alike. */
export function parseWdaXmlSource(value: unknown): WdaNode & { bundleId?: string } {
  if (typeof value !== 'string') throw new ToolError('INTERNAL', `WebDriverAgent /source?format=xml answered ${typeof value}, not XML text`);
  let parsed: Ordered[];
  try {
    parsed = xmlParser().parse(value) as Ordered[];
  } catch (err) {
    throw new ToolError('INTERNAL', `WebDriverAgent /source?format=xml is not readable XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const root = parsed.find((n) => tagOf(n) !== undefined);
  if (!root) throw new ToolError('INTERNAL', 'WebDriverAgent /source?format=xml holds no element');
  return toNode(root, tagOf(root)!);
}

/** An answer to format=json that is XML text: an emulation of WDA that serves one format whatever is asked. */
export const looksLikeXml = (value: unknown): value is string => typeof value === 'string' && value.trimStart().startsWith('<');

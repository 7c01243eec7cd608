import type http from 'node:http';

import type { WdaFaults } from './wda-faults.js';
import type { WdaJsonNode } from './wda-tree.js';

/*
 * Answers shaped otherwise than appium/WebDriverAgent 16.7.0 writes them, yet written by an older build or by an
 * emulation of WDA, and what stands in front of a WDA: applied to a route's value just before it is sent.
 */

/**
 * WDA before c2a0427b ("Define wdValue as NSString", July 2017) put wdValue into /source as XCTest handed it: a
 * switch's value the boxed BOOL `@([value boolValue])`, which NSJSONSerialization writes as JSON true/false, not "1"/"0".
 */
function withBooleanValues(node: WdaJsonNode): unknown {
  const value = node.type === 'Switch' && node.value !== null ? node.value === '1' : node.value;
  return { ...node, value, ...(node.children ? { children: node.children.map(withBooleanValues) } : {}) };
}

/** The JSON tree as builds before 035af066 (April 2021) write it: no isAccessible on any node. */
function withoutIsAccessible(node: WdaJsonNode): unknown {
  const { isAccessible: _dropped, ...rest } = node;
  return { ...rest, ...(node.children ? { children: node.children.map(withoutIsAccessible) } : {}) };
}

/**
 * /source's JSON as an emulation of WDA may write it: full XCUIElementType names, a key only where it says something
 * (no null names, values or labels, no flags at their usual value), digits as numbers, and `children: []` on leaves.
 */
function sparse(node: WdaJsonNode): unknown {
  const out: Record<string, unknown> = { type: `XCUIElementType${node.type}`, rect: node.rect };
  for (const key of ['rawIdentifier', 'name', 'label', 'placeholderValue'] as const) if (node[key]) out[key] = node[key];
  if (node.value !== null) out.value = /^\d+$/.test(node.value) ? Number(node.value) : node.value;
  if (node.isEnabled === '0') out.isEnabled = '0';
  if (node.isVisible === '0') out.isVisible = '0';
  if (node.isAccessible === '1') out.isAccessible = '1';
  if (node.isFocused === '1') out.isFocused = '1';
  out.children = (node.children ?? []).map(sparse);
  return out;
}

/** `request` is "GET /source?format=json" (session part left out), `value` what 16.7.0 answers. */
export function reshaped(faults: WdaFaults, request: string, value: unknown): unknown {
  if (faults.booleanValues && request === 'GET /source?format=json' && value && typeof value === 'object') return withBooleanValues(value as WdaJsonNode);
  if (faults.withoutIsAccessible && request === 'GET /source?format=json' && value && typeof value === 'object') return withoutIsAccessible(value as WdaJsonNode);
  if (faults.withoutIsAccessible && request === 'GET /source?format=xml' && typeof value === 'string') return value.replace(/ accessible="(true|false)"/g, '');
  if (faults.sparseJson && request === 'GET /source?format=json' && value && typeof value === 'object') return sparse(value as WdaJsonNode);
  // Before 5d1d76b5 (October 2022) WDA encoded screenshots with NSDataBase64Encoding64CharacterLineLength.
  if (faults.base64Lines && request === 'GET /screenshot' && typeof value === 'string') return value.replace(/.{64}/g, '$&\r\n');
  if (faults.screenWithoutScale && request === 'GET /wda/screen' && value && typeof value === 'object') {
    const { scale: _scale, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  return value;
}

/**
 * A reverse proxy (nginx) in front of a WebDriverAgent answering in its stead with its own HTML error page: 502 Bad
 * Gateway (WDA refused the connection), 504 Gateway Time-out (it did not answer), 404 (no location for the path).
 */
export function answerAsProxy(res: http.ServerResponse, status: 404 | 502 | 503 | 504): void {
  const reason = { 404: 'Not Found', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out' }[status];
  const page = `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, { server: 'nginx/1.24.0', 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
  res.end(page);
}

/**
 * How a web framework answers a route nobody registered, for an emulation of WDA built on one that lacks the route:
 * Express's default page ("Cannot GET /path", text/html) or Fastify's default JSON (no WDA `value` at all).
 */
export function answerAsFramework(res: http.ServerResponse, kind: 'express' | 'fastify', method: string, path: string): void {
  const [type, body] =
    kind === 'express'
      ? ['text/html; charset=utf-8', `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${method} ${path}</pre>\n</body>\n</html>\n`]
      : ['application/json; charset=utf-8', JSON.stringify({ message: `Route ${method}:${path} not found`, error: 'Not Found', statusCode: 404 })];
  res.writeHead(404, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

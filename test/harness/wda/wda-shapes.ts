import type { WdaFaults } from './wda-faults.js';
import type { WdaJsonNode } from './wda-tree.js';

/*
 * Answers shaped otherwise than appium/WebDriverAgent 16.7.0 writes them, yet written by an older build or by an
 * emulation of WDA: applied to a route's value just before it is sent.
 */

/**
 * WDA before c2a0427b ("Define wdValue as NSString", July 2017) put wdValue into /source as XCTest handed it: a
 * switch's value the boxed BOOL `@([value boolValue])`, which NSJSONSerialization writes as JSON true/false, not "1"/"0".
 */
function withBooleanValues(node: WdaJsonNode): unknown {
  const value = node.type === 'Switch' && node.value !== null ? node.value === '1' : node.value;
  return { ...node, value, ...(node.children ? { children: node.children.map(withBooleanValues) } : {}) };
}

/** `request` is "GET /source?format=json" (session part left out), `value` what 16.7.0 answers. */
export function reshaped(faults: WdaFaults, request: string, value: unknown): unknown {
  if (faults.booleanValues && request === 'GET /source?format=json' && value && typeof value === 'object') return withBooleanValues(value as WdaJsonNode);
  if (faults.screenWithoutScale && request === 'GET /wda/screen' && value && typeof value === 'object') {
    const { scale: _scale, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  return value;
}

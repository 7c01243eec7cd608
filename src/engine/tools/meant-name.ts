/**
 * The parameter a caller most likely meant by a name the call does not take: a near spelling
 * ("targte" → "target"), else a word with the same meaning that agents and other tools use
 * ("element" → "target", "arguments" → "parameters", "packageName" → "bundle_id"). Only a name the
 * call takes is ever suggested.
 */
import { closest } from '../../validate/suggest.js';

/** Our name → the names other tools and habits give it (lower case, without separators). */
const SAME_MEANING: Record<string, readonly string[]> = {
  target: ['element', 'selector', 'description', 'locator', 'label', 'query', 'elementdescription', 'targetdescription', 'name'],
  package: ['app', 'appid', 'bundleid', 'packagename', 'application', 'pkg'],
  packageName: ['package', 'app', 'appid', 'bundleid', 'application', 'pkg'],
  bundle_id: ['package', 'packagename', 'app', 'appid', 'application', 'pkg'],
  parameters: ['arguments', 'args', 'params', 'input', 'parameter'],
  tool: ['name', 'toolname', 'method', 'function'],
  url: ['link', 'uri', 'href', 'deeplink'],
  timeout_ms: ['timeout', 'wait', 'waitms'],
  text: ['value', 'keys', 'string', 'inputtext'],
  device: ['deviceid', 'serial', 'udid'],
};

const squeeze = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');

export function meantName(given: string, known: readonly string[]): string | undefined {
  const near = closest(given, known);
  if (near) return near;
  const word = squeeze(given);
  return known.find((name) => SAME_MEANING[name]?.includes(word) || (squeeze(name) === word && name !== given));
}

/** ` (did you mean "x"?)`, or nothing. */
export function meantHint(given: string, known: readonly string[]): string {
  const meant = meantName(given, known);
  return meant ? ` (did you mean "${meant}"?)` : '';
}

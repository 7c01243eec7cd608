import { normalizeText } from '../resolve/index.js';
import { PACKAGE_RE } from '../tools/params.js';
import type { InstalledApp } from '../types.js';
import { call } from './screen.js';
import { VerbError, type VerbContext } from './types.js';

/**
 * Refuses a package that is no package id before the engine does. What a model passes first is
 * what list_apps shows people, an app's name ("MobileBridge Demo"), and the engine's refusal named
 * only its own parameter (packageName) and the id syntax; here the installed apps are looked up, so
 * the refusal gives the package id of the app meant.
 */
export async function requirePackageId(ctx: VerbContext, action: string, given: string): Promise<void> {
  if (PACKAGE_RE.test(given)) return;
  const apps = await call<InstalledApp[] | { apps: InstalledApp[] }>(ctx, 'mobile_list_apps').then(
    (r) => (Array.isArray(r) ? r : r.apps),
    () => [] as InstalledApp[],
  );
  const key = normalizeText(given);
  const labelled = apps.filter((a) => !a.labelUnknown && a.name);
  const named = labelled.filter((a) => normalizeText(a.name) === key);
  const near = named.length ? [] : labelled.filter((a) => key.length >= 3 && (normalizeText(a.name).includes(key) || key.includes(normalizeText(a.name))));
  const ids = (list: InstalledApp[]) => list.map((a) => `${a.package} (${JSON.stringify(a.name)})`).join(', ');
  const what = `${action}: ${JSON.stringify(given)} is not a package id (an Android package name or iOS bundle id: words of letters, digits, _ and - joined by dots, e.g. com.example.app)`;
  if (named.length === 1) throw new VerbError('INVALID_PARAMETER', `${what}: it is the name of the app ${named[0].package} on ${ctx.device}; give that package id instead`);
  if (named.length) throw new VerbError('INVALID_PARAMETER', `${what}: it is the name of several apps on ${ctx.device}, ${ids(named)}; give the package id of the one you mean`);
  const hint = near.length ? `; installed apps with a name like it: ${ids(near)}` : '';
  throw new VerbError('INVALID_PARAMETER', `${what}${hint}; list_apps gives each installed app's package id`);
}

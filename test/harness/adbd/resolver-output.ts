/**
 * What `dumpsys package [-f] r` and `dumpsys package <pkg>` print of the package manager's intent
 * resolvers on Android 5–6, for the emulated phone's apps. Written from AOSP frameworks/base
 * (android-5.x/6.0): PackageManagerService.dump (one table per resolver: "Activity Resolver Table:",
 * then "\nReceiver Resolver Table:"…; a package name as the command limits the tables to it, and
 * current releases then show the filters without -f), services/core/java/com/android/server/IntentResolver.java dump/dumpMap
 * (section titles at 2 spaces, a blank line between sections, keys at 6, one line per filter at 8),
 * PackageManagerService.ActivityIntentResolver.dumpFilter ("<identity hash> <component short name>
 * filter <identity hash>") and core/java/android/content/IntentFilter.java dump (Action/Category/
 * Scheme lines, 2 spaces deeper, with -f only). A filter with a scheme is listed under each scheme
 * ("Schemes:"), one without data under each action ("Non-Data Actions:"). Empty sections and
 * tables are not printed.
 */

export interface DeclaredFilter {
  actions: string[];
  categories: string[];
  schemes?: string[];
}

/** A component ("pkg/.Class", ComponentName.flattenToShortString) and its intent filters. */
export interface DeclaredComponent {
  component: string;
  filters: DeclaredFilter[];
}

const MAIN = 'android.intent.action.MAIN';
const launcherFilter = (): DeclaredFilter => ({ actions: [MAIN], categories: ['android.intent.category.LAUNCHER'] });

/** The emulated phone's manifests, as far as resolving intents goes. */
export interface PhoneManifests {
  /** Installed packages, the home app first. */
  packages: string[];
  home: string;
  browser: string;
  settings: string;
  /** Packages with a second launcher activity (phone-quirks.ts secondLauncher). */
  secondLauncher: ReadonlyMap<string, string>;
}

/** Activities and receivers: every app a launcher activity, the home app a HOME filter instead, Settings a MAIN screen that is not in the launcher, the browser its web schemes. */
export function declaredComponents(m: PhoneManifests): { activities: DeclaredComponent[]; receivers: DeclaredComponent[] } {
  const activities: DeclaredComponent[] = [];
  for (const pkg of m.packages) {
    if (pkg === m.home) {
      activities.push({ component: `${pkg}/.MainActivity`, filters: [{ actions: [MAIN], categories: ['android.intent.category.HOME', 'android.intent.category.DEFAULT'] }] });
      continue;
    }
    activities.push({ component: `${pkg}/.MainActivity`, filters: [launcherFilter()] });
    const second = m.secondLauncher.get(pkg);
    if (second) activities.push({ component: `${pkg}/${second}`, filters: [launcherFilter()] });
    if (pkg === m.settings) activities.push({ component: `${pkg}/.SubSettings`, filters: [{ actions: [MAIN], categories: ['android.intent.category.DEFAULT'] }] });
    if (pkg === m.browser) {
      activities.push({
        component: `${pkg}/com.google.android.apps.chrome.IntentDispatcher`,
        filters: [{ actions: ['android.intent.action.VIEW'], categories: ['android.intent.category.DEFAULT', 'android.intent.category.BROWSABLE'], schemes: ['http', 'https'] }],
      });
    }
  }
  const receivers = m.packages.filter((p) => p !== m.home).map((pkg) => ({
    component: `${pkg}/.BootReceiver`,
    filters: [{ actions: ['android.intent.action.BOOT_COMPLETED'], categories: [] }],
  }));
  return { activities, receivers };
}

/** `dumpsys package [-f] r` (all packages) or `dumpsys package <pkg>`'s resolver part (`only`; filters shown). */
export function resolverTables(m: PhoneManifests, showFilters: boolean, only?: string): string {
  const { activities, receivers } = declaredComponents(m);
  const mine = (c: DeclaredComponent) => only === undefined || c.component.startsWith(`${only}/`);
  const tables = [table('Activity Resolver Table:', activities.filter(mine), showFilters, 0), table('Receiver Resolver Table:', receivers.filter(mine), showFilters, 100)];
  return tables.filter((t) => t !== '').join('\n');
}

function table(title: string, components: DeclaredComponent[], showFilters: boolean, hashBase: number): string {
  const schemes = new Map<string, string[]>();
  const actions = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, lines: string[]) => map.set(key, [...(map.get(key) ?? []), ...lines]);
  components.forEach((c, i) => {
    c.filters.forEach((f, j) => {
      const lines = [`        ${hash(hashBase + i, 0x3e2c9c1)} ${c.component} filter ${hash(hashBase + i * 8 + j, 0x1ea3a66)}`];
      if (showFilters) {
        lines.push(...f.actions.map((a) => `          Action: "${a}"`), ...f.categories.map((k) => `          Category: "${k}"`), ...(f.schemes ?? []).map((s) => `          Scheme: "${s}"`));
      }
      if (f.schemes?.length) f.schemes.forEach((s) => add(schemes, s, lines));
      else f.actions.forEach((a) => add(actions, a, lines));
    });
  });
  const section = (name: string, map: Map<string, string[]>) =>
    map.size ? [`  ${name}`, ...[...map].flatMap(([key, lines]) => [`      ${key}:`, ...lines])].join('\n') + '\n' : '';
  const sections = [section('Schemes:', schemes), section('Non-Data Actions:', actions)].filter((s) => s !== '');
  return sections.length ? `${title}\n${sections.join('\n')}` : '';
}

/** An identity hash as Integer.toHexString prints it: stable per component, distinct between them. */
function hash(n: number, base: number): string {
  return ((base + n * 0x9e37) >>> 0).toString(16);
}

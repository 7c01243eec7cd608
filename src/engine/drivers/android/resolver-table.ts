/**
 * The launcher activities in the "Activity Resolver Table" that `dumpsys package -f r` (every
 * package) and `dumpsys package <pkg>` (one package, filters always shown) print. This is where
 * Android 5–6, which have no `cmd package query-activities`, tell which activities the launcher shows.
 *
 * Layout, from AOSP frameworks/base (Android 5/6): PackageManagerService.dump calls
 * mActivities.dump(pw, "Activity Resolver Table:", "  ", packageName, showFilters), and
 * IntentResolver.dump/dumpMap print
 *
 *     Activity Resolver Table:
 *       Non-Data Actions:                                  (section, 2 spaces)
 *           android.intent.action.MAIN:                    (action, 6 spaces)
 *             3e2c9c1 com.example/.MainActivity filter 1ea3a66   (ActivityIntentResolver.dumpFilter, 8 spaces)
 *               Action: "android.intent.action.MAIN"       (IntentFilter.dump, 10 spaces; -f only)
 *               Category: "android.intent.category.LAUNCHER"
 *
 * A filter without data (the launcher's MAIN + LAUNCHER) is registered under its action in
 * "Non-Data Actions"; filters with a scheme or type sit in the other sections. The Receiver,
 * Service and Provider tables that follow start again at column 0 and are not read.
 */
export function parseLauncherActivities(dump: string): Map<string, string[]> {
  const launchers = new Map<string, string[]>();
  let inTable = false;
  let section = '';
  let action = '';
  let component: string | undefined;
  const keep = (c: string) => {
    const pkg = c.slice(0, c.indexOf('/'));
    const known = launchers.get(pkg) ?? [];
    if (!known.includes(c)) launchers.set(pkg, [...known, c]);
  };
  for (const line of dump.split('\n')) {
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      if (inTable) break;
      inTable = line.startsWith('Activity Resolver Table:');
      continue;
    }
    if (!inTable) continue;
    const text = line.trim();
    if (indent <= 2) [section, action, component] = [text, '', undefined];
    else if (indent <= 6) [action, component] = [text, undefined];
    else if (indent <= 8) component = /^[0-9a-f]+ ([\w.$]+\/[\w.$]+) filter /.exec(text)?.[1];
    else if (component && section === 'Non-Data Actions:' && action === 'android.intent.action.MAIN:' && text === 'Category: "android.intent.category.LAUNCHER"') keep(component);
  }
  return launchers;
}

import type { InstalledApp } from '../../types.js';
import type { ScreenSize } from '../../ui-tree.js';

/** Parsers for the text that Android's shell commands print. Each names the command and release it was written for. */

/** Echoed between commands run in one round trip, to split their outputs. */
export const SEPARATOR = '__mobilebridge__';

/**
 * Whether the shell found no `binary` to run: mksh's "/system/bin/sh: <binary>: not found" (some
 * builds "inaccessible or not found"), which no retry changes.
 */
export function shellLacks(out: string, binary: string): boolean {
  return new RegExp(`\\b${binary}: (?:inaccessible or )?not found`).test(out);
}

/** The first line of what a command printed, at most `max` characters: enough to quote it in a message. */
export const firstLine = (out: string, max = 200): string => out.trim().split('\n')[0].slice(0, max);

/**
 * What a shell command printed when it did nothing (the commands that work print nothing, as `input`
 * and `am force-stop` do): an exception or "Error:" line, "Unknown command" (a service's shell command
 * without that verb), or the shell's "<binary>: not found". `lacking`: the device has no such command,
 * so no retry can help.
 */
export function commandRefusal(out: string, binary: string): { lacking: boolean; said: string } | undefined {
  const lacking = /Unknown command/.test(out) || shellLacks(out, binary);
  if (!lacking && !/Exception|Error:/.test(out)) return undefined;
  return { lacking, said: firstLine(out) };
}

/** `wm size`: "Physical size: 1080x2400" and, when overridden, "Override size: 720x1600" (the one in effect). */
export function parseWmSize(out: string): ScreenSize | undefined {
  const pick = (label: string) => new RegExp(`${label} size:\\s*(\\d+)x(\\d+)`).exec(out);
  const m = pick('Override') ?? pick('Physical');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/**
 * The display's real rotation (0–3) from `dumpsys input` (the user_rotation setting alone is wrong
 * while auto-rotate is on): the default display's viewport says it (defaultViewport; on Android 8–9
 * the configuration's "ViewportInternal:" entry). Releases without viewport lines (7 and older) have
 * the touch mapper's "SurfaceOrientation: 1", but that is 0 for a touch device that does not follow
 * the display (a touchpad, an emulator's spare multi-touch devices) and the first device listed
 * wins, so it comes last.
 */
export function parseRotation(out: string): number | undefined {
  const main = defaultViewport(out) ?? configuredViewport(out, 'Internal');
  const m = (main && /orientation=(\d)/.exec(main)) ?? /SurfaceOrientation:\s*(\d)/.exec(out) ?? /Viewport INTERNAL:[^\n]*?orientation=(\d)/.exec(out);
  return m ? Number(m[1]) : undefined;
}

/**
 * The physical display the default display is shown on now, from `dumpsys input`: the uniqueId of
 * its viewport, "local:" + the physical display id (LocalDisplayAdapter), which is the id
 * `dumpsys SurfaceFlinger --display-id` lists and `screencap -d` takes. Undefined when no viewport
 * of display 0 is active (the screen is off) or the release prints none in that form (before 10).
 */
export function parseDefaultDisplayPanel(out: string): string | undefined {
  const main = defaultViewport(out);
  return main ? /uniqueId=local:(\d+)/.exec(main)?.[1] : undefined;
}

/**
 * How many physical displays `dumpsys input` has a viewport for (Android 10+: INTERNAL and EXTERNAL
 * lines, each counted once by its uniqueId; 8–9: the configuration's internal and external entries
 * that are set): a foldable lists both panels, a phone with a connected screen two, an ordinary
 * phone one. Virtual displays are left out.
 */
export function parseViewportCount(out: string): number {
  // A touch device tied to no display (a touch-navigation pad; TouchInputMapper setNonDisplayViewport) prints
  // an INTERNAL viewport of display -1 with an empty uniqueId: no display.
  const lines = (out.match(/^\s*Viewport (?:INTERNAL|EXTERNAL)\b[^\n]*/gm) ?? []).filter((l) => !/displayId=-1\b/.test(l) && !/uniqueId=(?:,|''|\s|$)/.test(l));
  const older = [configuredViewport(out, 'Internal'), configuredViewport(out, 'External')].filter((v) => v !== undefined);
  return new Set([...lines, ...older].map((l) => /uniqueId='?([^,'\s]+)/.exec(l)?.[1] ?? l.trim())).size;
}

/**
 * The default display's active internal viewport line ("Viewport INTERNAL: displayId=0, uniqueId=…,
 * …, orientation=1, …, isActive=[1]", DisplayViewport::toString). A foldable lists one for each
 * panel, both showing display 0 (DisplayManagerService.configureDisplayLocked gives the panel that is
 * off the default display to mirror): the one that is on says isActive=[1].
 */
function defaultViewport(out: string): string | undefined {
  const viewports = out.match(/Viewport INTERNAL:[^\n]*/g) ?? [];
  return viewports.find((v) => /displayId=0,/.test(v) && !/isActive=\[(?:0|false)\]/.test(v));
}

/**
 * Android 8–9's viewport the window manager set for the internal or external display, from the end
 * of `dumpsys input` (InputReaderConfiguration::dump: a "ViewportInternal:" heading, then one
 * dumpViewport line, "Viewport: displayId=0, orientation=1, uniqueId='local:0', logicalFrame=…").
 * An unset one has displayId=-1 and counts as none. The touch mappers' own "Viewport: displayId=…"
 * lines come earlier, without a heading, and are not taken.
 */
function configuredViewport(out: string, kind: 'Internal' | 'External'): string | undefined {
  return new RegExp(`^\\s*Viewport${kind}:[ \\t]*\\r?\\n\\s*(Viewport: displayId=\\d+,[^\\n]*)`, 'm').exec(out)?.[1];
}

/**
 * `dumpsys activity activities`: "mResumedActivity: ActivityRecord{…}" per stack (≤ 9); from 10 the
 * focused one is the global "  ResumedActivity: …" line, printed after every task's
 * "topResumedActivity=…" (split screen and freeform windows have one each), so it is preferred.
 */
export function parseResumedPackage(out: string): string | undefined {
  return (FOCUSED_RESUMED.exec(out) ?? STACK_RESUMED.exec(out))?.[1];
}
const RECORD = String.raw`ActivityRecord\{\S+ \S+ ([A-Za-z0-9_.]+)\/`;
const FOCUSED_RESUMED = new RegExp(String.raw`^\s*ResumedActivity:\s*${RECORD}`, 'm');
const STACK_RESUMED = new RegExp(String.raw`(?:mResumedActivity|topResumedActivity)[:=]\s*${RECORD}`);

/**
 * `cmd package query-activities -a MAIN -c LAUNCHER` (Android 7+): one "Activity #n:" block each, with
 * "packageName=" and, in its ApplicationInfo, "nonLocalizedLabel=" (null unless the label is a literal
 * string). Resolving resource labels needs one call per app, so those fall back to the package name
 * and say `labelUnknown`.
 * Versions come from `versions` (package → versionCode; app-versions.ts reads them).
 */
export function parseLauncherApps(activities: string, versions: ReadonlyMap<string, string>): InstalledApp[] {
  const apps = new Map<string, InstalledApp>();
  for (const block of launcherBlocks(activities)) {
    const pkg = /packageName=(\S+)/.exec(block)?.[1];
    if (!pkg || apps.has(pkg)) continue;
    const label = launcherLabel(block);
    const version = versions.get(pkg) ?? '';
    apps.set(pkg, label && label !== 'null' ? { package: pkg, name: label, version, installed: true } : { package: pkg, name: pkg, labelUnknown: true, version, installed: true });
  }
  return [...apps.values()].sort((a, b) => a.package.localeCompare(b.package));
}

/**
 * One block per matching activity. Where the answer has no "Activity #n:" headers but bare
 * "packageName=" lines (a shell printing only what clients read, as a device emulation may), each
 * such line stands for one activity, its label unknown.
 */
function launcherBlocks(activities: string): string[] {
  if (/^\s*Activity #\d+:/m.test(activities)) return activities.split(/^\s*Activity #\d+:/m).slice(1);
  return [...activities.matchAll(/^\s*packageName=\S+/gm)].map((m) => m[0]);
}

/**
 * The label the launcher shows, from PackageItemInfo.dumpFront lines ("labelRes=0x… nonLocalizedLabel=…"):
 * the activity's own first, then its ApplicationInfo's. An activity that declares only an icon prints
 * labelRes=0x0 and a null label, and the app's label is shown; one with a resource label (labelRes set,
 * no literal) is shown by that resource, which the dump does not resolve.
 */
function launcherLabel(block: string): string | undefined {
  for (const m of block.matchAll(/labelRes=(0x[0-9a-f]+) nonLocalizedLabel=(.*?)(?= icon=| banner=|$)/gm)) {
    const label = m[2].trim();
    if (label !== 'null' && label !== '') return label;
    if (m[1] !== '0x0') return undefined;
  }
  return undefined;
}

/**
 * `pm list packages --show-versioncode` (Android 8+; PackageManagerShellCommand runListPackages):
 * "package:<id> versionCode:<n>" lines.
 */
export function parseListedVersions(out: string): Map<string, string> {
  return new Map([...out.matchAll(/^package:(\S+)\s+versionCode:(\d+)/gm)].map((m) => [m[1], m[2]]));
}

/**
 * `dumpsys package packages` (every release; Settings.dumpPackagesLPr / dumpPackageLPr): under
 * "Packages:", one "  Package [<id>] (<hash>):" block each, holding "    versionCode=<n> targetSdk=<n>"
 * (" minSdk=<n>" between the two from Android 8). The "Hidden system packages:" section after it
 * repeats every updated system app with its factory versionCode, so only the first section counts.
 */
export function parseDumpedVersions(out: string): Map<string, string> {
  const installed = out.split(/^Hidden system packages:/m)[0];
  const versions = new Map<string, string>();
  for (const block of installed.split(/^\s*Package \[/m).slice(1)) {
    const pkg = /^([^\]\s]+)\]/.exec(block)?.[1];
    const code = /^\s*versionCode=(\d+)/m.exec(block)?.[1];
    if (pkg && code && !versions.has(pkg)) versions.set(pkg, code);
  }
  return versions;
}

/** `getprop` prints "[key]: [value]" lines. */
export function parseGetprop(out: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const m of out.matchAll(/^\[([^\]]+)\]: \[([^\]]*)\]/gm)) props.set(m[1], m[2]);
  return props;
}

/**
 * `dumpsys SurfaceFlinger --display-id` (Android 10+): "Display <id> (HWC display N): …" per physical
 * display. Before 10 SurfaceFlinger::doDump does not know the option and prints its whole dump,
 * whose "Display 0 color modes:" and "Display 0 HWC layers:" lines are not a listing: no display.
 */
export function parseDisplayIds(out: string): string[] {
  return [...new Set([...out.matchAll(/^Display (\d+) \(HWC display \d+\)/gm)].map((m) => m[1]))];
}

/** Whether `pm list packages` (whose filter matches any name containing it) lists exactly `pkg`. */
export function isListed(out: string, pkg: string): boolean {
  return out.split('\n').some((line) => line.trim() === `package:${pkg}`);
}

/** `pm path <pkg>` prints "package:/data/app/…/base.apk" when installed and nothing (exit 1) when not. */
export function isInstalledOutput(out: string): boolean {
  return /^package:/m.test(out);
}

/**
 * Whether the phone refused a command for lack of a permission. What the shell echoes back of the
 * command is left out first: `am` prints the intent it starts ("Starting: Intent { … dat=<link> }",
 * also inside its errors) and the activity it waited for, and a link or class name may hold any word
 * ("myapp://errors?type=SecurityException" opened fine).
 */
export function isSecurityException(out: string): boolean {
  const said = out.replace(/Intent \{.*\}/g, 'Intent {}').replace(/^Activity: .*$/gm, '');
  return /SecurityException|Permission Denial|not allowed to|requires .*permission/i.test(said);
}

/**
 * `cmd package resolve-activity --brief …` (Android 7+): a "priority=… preferredOrder=…" line, then
 * "pkg/.Activity" (or "pkg/full.Activity"); "No activity found" when nothing matches. When the
 * package has two launcher activities of equal rank, the package manager answers with its app
 * chooser ("android/com.android.internal.app.ResolverActivity", PackageManagerService
 * chooseBestActivity): that is not the app's, so only a component of `pkg` itself counts.
 */
export function parseResolvedActivity(out: string, pkg: string): string | undefined {
  return components(out).reverse().find((c) => c.startsWith(`${pkg}/`));
}

/**
 * `cmd package query-activities --brief --components …`: one "pkg/.Activity" line per match, best
 * first (PackageManagerShellCommand runQueryIntentActivities); "No activities found" when none. A
 * shell that ignores the two options prints the full form, an "Activity #n:" block per match whose
 * ActivityInfo has "name=<class>" and "packageName=<pkg>"; those are read too.
 */
export function parseQueriedActivities(out: string, pkg: string): string[] {
  const full = out
    .split(/^\s*Activity #\d+:/m)
    .slice(1)
    .map((block) => [/^\s*name=(\S+)/m.exec(block)?.[1], /^\s*packageName=(\S+)/m.exec(block)?.[1]])
    .filter(([name, owner]) => name && owner === pkg)
    .map(([name]) => `${pkg}/${name}`);
  return [...components(out).filter((c) => c.startsWith(`${pkg}/`)), ...full];
}

function components(out: string): string[] {
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z0-9_.]+\/[A-Za-z0-9_.$]+$/.test(l));
}

/**
 * `settings get global wifi_on` (WifiSettingsStore): 0 off, 1 on, 2 on with airplane mode on
 * (the user turned Wi-Fi back on), 3 off because airplane mode is on.
 */
export function parseWifiOn(out: string): boolean | undefined {
  const m = /^\s*([0-3])\s*$/.exec(out);
  return m ? m[1] === '1' || m[1] === '2' : undefined;
}

import type { CallContext } from '../../../src/engine/driver.js';
import { ToolError } from '../../../src/engine/errors.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { Answer, FakeToolsConfig } from './fake-tools-config.js';
import { builtFor } from './package-platforms.js';

/*
 * The fake `xcrun simctl`: its answers from the virtual simulators' state, in simctl's formats and with its
 * failures ("An error was encountered processing the command…"). Apart from fake-tools.ts, which serves the fake
 * executables and hands each command to this or to the go-ios emulation.
 */

/** `simctl launch` passes SIMCTL_CHILD_<name> from its own environment to the app as <name>. */
function childEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('SIMCTL_CHILD_')).map(([k, v]) => [k.slice('SIMCTL_CHILD_'.length), v]));
}

const ctx = (): CallContext => ({ signal: new AbortController().signal });
const q = (s: string) => (/^[A-Za-z0-9_.$/:-]+$/.test(s) ? s : JSON.stringify(s));

const simError = (domain: string, code: number, lines: string[]): Answer => ({
  stderr: `An error was encountered processing the command (domain=${domain}, code=${code}):\n${lines.join('\n')}\n`,
  code: code & 0xff || 1,
});

/**
 * `simctl install` refused inside the simulator (installd), as Xcode 15.2 prints it (NyaMisty/ipatool-py#74): the reason
 * sits between two generic lines and an "Underlying error" whose last line is "Please try again later.".
 */
const installRefused = (path: string, reason: string): Answer => {
  const name = path.split('/').pop()!.replace(/\.(app|ipa)$/, '');
  return {
    stderr: [
      'An error was encountered processing the command (domain=IXUserPresentableErrorDomain, code=1):',
      'Simulator device returned an error for the requested operation.',
      'Please try again later.',
      reason,
      'Underlying error (domain=IXUserPresentableErrorDomain, code=1):',
      `\tUnable To Install “${name}”`,
      '\tPlease try again later.',
      '',
    ].join('\n'),
    code: 1,
  };
};

/** simctl's answer to a subcommand it does not have (Xcode 26.4): one line on stderr, its usage on stdout, exit 1. */
const SIMCTL_UNRECOGNIZED = (verb: string): Answer => ({
  stderr: `Unrecognized subcommand: ${verb}\n`,
  stdout: 'usage: simctl [--set <path>] [--profiles <path>] <subcommand> ...\n       simctl help [subcommand]\nCommand line utility to control the Simulator\n',
  code: 1,
});

/** `xcrun <args>` with the SIMCTL_CHILD_ variables of the caller's environment: only `simctl` is there. */
export async function answerXcrun(config: FakeToolsConfig, args: string[], env: Record<string, string>): Promise<Answer> {
  if (args[0] !== 'simctl') return { stderr: `xcrun: error: unable to find utility "${args[0]}", not a developer tool or in PATH\n`, code: 72 };
  if (config.xcodeSelected === false) return { stderr: 'xcrun: error: unable to find utility "simctl", not a developer tool or in PATH\n', code: 72 };
  const [verb, ...rest] = args.slice(1);
  if (config.simctlLacks?.includes(verb)) return SIMCTL_UNRECOGNIZED(verb);
  if (verb === 'list') return { stdout: simList(config) };
  const sim = config.simulators.find((s) => s.udid === rest[0] || (rest[0] === 'booted' && s.state === 'Booted'));
  if (!sim) return { stderr: `Invalid device: ${rest[0]}\n`, code: 148 };
  if (sim.state !== 'Booted') return simError('com.apple.CoreSimulator.SimError', 405, [`Unable to lookup in current state: ${sim.state}`]);
  const d = sim.device;
  const id = rest[1];
  try {
    switch (verb) {
      case 'listapps':
        return { stdout: listApps(d) };
      case 'install':
        try {
          // Whether and how a real simctl refuses a device build is not verified (it sometimes installs one that
          // then dies at launch: facebook/idb#261); this fake refuses, in installd's layout, with a reason of its own.
          const platforms = await builtFor(id);
          if (platforms && !platforms.includes('iPhoneSimulator')) throw new Error(`The application is built for ${platforms.join(', ')}, which this simulator does not run.`);
          await d.installApp(id, ctx());
        } catch (err) {
          return installRefused(id, err instanceof ToolError ? err.message : String(err));
        }
        return {};
      case 'uninstall':
        if (d.installedApps.some((a) => a.package === id)) await d.uninstallApp(id, ctx());
        return {};
      case 'get_app_container':
        // The bundle's path; for an app that is not installed the wording of simctl's failure is a guess.
        if (!d.installedApps.some((a) => a.package === id)) return simError('NSPOSIXErrorDomain', 2, ['No such file or directory']);
        return { stdout: `/Users/test/Library/Developer/CoreSimulator/Devices/${sim.udid}/data/Containers/Bundle/Application/${id}.app\n` };
      case 'launch':
        if (!d.installedApps.some((a) => a.package === id)) {
          return simError('FBSOpenApplicationServiceErrorDomain', 4, [`The request to open "${id}" failed.`, 'Underlying error (domain=FBSOpenApplicationErrorDomain, code=4):', `\tThe operation couldn’t be completed. Application info provider (FBSApplicationLibrary) returned nil for "${id}"`]);
        }
        if (config.onLaunch?.[id]) await config.onLaunch[id]({ udid: sim.udid, env: childEnv(env) });
        else await d.launchApp(id, ctx());
        if (config.crashOnLaunch?.includes(id)) await d.terminateApp(id, ctx());
        return { stdout: `${id}: ${40000 + (id.length % 97)}\n` };
      case 'terminate':
        // As simctl prints it (Xcode 15; wix/Detox#4415): exit code 3, NSPOSIXErrorDomain (ESRCH).
        // Any running app is terminated, in front or in the background; only one not running finds nothing.
        if (!(id in d.snapshot().tasks)) {
          return simError('NSPOSIXErrorDomain', 3, ['Simulator device returned an error for the requested operation.', 'found nothing to terminate', 'Underlying error (domain=NSPOSIXErrorDomain, code=3):', `\tThe request to terminate "${id}" failed. found nothing to terminate`, '\tfound nothing to terminate']);
        }
        await d.terminateApp(id, ctx());
        return {};
      case 'openurl':
        await d.openUrl(id, ctx());
        return {};
    }
  } catch (err) {
    return simError('NSPOSIXErrorDomain', 1, [err instanceof ToolError ? err.message : String(err)]);
  }
  return { stderr: `simctl: unknown subcommand ${verb}\n`, code: 64 };
}

function simList(config: FakeToolsConfig): string {
  const devices: Record<string, object[]> = {};
  for (const s of config.simulators) {
    (devices[`com.apple.CoreSimulator.SimRuntime.${s.runtime}`] ??= []).push({
      dataPath: `/Users/test/Library/Developer/CoreSimulator/Devices/${s.udid}/data`,
      logPath: `/Users/test/Library/Logs/CoreSimulator/${s.udid}`,
      udid: s.udid,
      isAvailable: true,
      deviceTypeIdentifier: `com.apple.CoreSimulator.SimDeviceType.${s.name.replace(/ /g, '-')}`,
      state: s.state,
      name: s.name,
    });
  }
  return JSON.stringify({ devices }, null, 2) + '\n';
}

function listApps(d: VirtualDevice): string {
  const entries = d.installedApps
    .filter((a) => a.package !== d.profile.launcher)
    .map((a) => {
      const lines = [
        `    ${q(a.package)} =     {`,
        `        ApplicationType = ${a.system ? 'System' : 'User'};`,
        `        Bundle = ${q(`file:///Applications/${a.name}.app/`)};`,
        `        CFBundleDisplayName = ${q(a.name)};`,
        `        CFBundleIdentifier = ${q(a.package)};`,
        `        CFBundleName = ${q(a.name)};`,
        `        CFBundleShortVersionString = ${q(a.version)};`,
        `        CFBundleVersion = 1;`,
        `        SBAppTags =         (`,
        `        );`,
        `    };`,
      ];
      return lines.join('\n');
    });
  return `{\n${entries.join('\n')}\n}\n`;
}

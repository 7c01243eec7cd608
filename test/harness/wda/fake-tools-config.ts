import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { EmulatedWda } from './emulated-wda.js';

/*
 * What a test sets the fake `xcrun` and `ios` up with (the simulators, the phones, the tools' versions and
 * lacks), and the shape of a fake command's answer. Kept apart from fake-tools.ts so that the simctl and go-ios
 * emulations and the phones' usbmuxd read them without importing the server that dispatches to them.
 */

export interface FakeSimulator {
  udid: string;
  name: string;
  /** e.g. "iOS-17-5" */
  runtime: string;
  /** CoreSimulator's states as simctl lists them; only a Booted one runs commands. */
  state: 'Creating' | 'Shutdown' | 'Booting' | 'Booted' | 'Shutting Down';
  device: VirtualDevice;
}

export interface FakePhone {
  udid: string;
  productType: string;
  version: string;
  device: VirtualDevice;
  /** A go-ios tunnel is up (needed from iOS 17). */
  tunnel: boolean;
  /** WebDriverAgent inside the phone (port 8100, MJPEG 9100), reached through usbmuxd. */
  wda: EmulatedWda;
  /** Also paired over Wi-Fi: `ios list` shows it twice, once per connection. */
  wifi?: boolean;
  /** Unplugged: absent from `ios list` and usbmuxd's list; connections carried to it close. */
  unplugged?: boolean;
  /** Not paired / "Trust This Computer" not tapped: usbmuxd lists it, lockdown refuses it. */
  untrusted?: boolean;
  /** No developer disk image mounted: process control (launch, kill) is refused by the phone. */
  noDeveloperImage?: boolean;
  /**
   * Developer Mode (iOS 16+; default on). Off, no developer image can be mounted, so process control is refused as
   * without one; `ios devmode get` prints {"DeveloperModeEnabled": false}.
   */
  developerMode?: boolean;
  /** Counts plug-ins: usbmuxd gives the phone a new device id at each. */
  plugged?: number;
}

export interface SimLaunch {
  udid: string;
  env: Record<string, string>;
}

export interface FakeToolsConfig {
  simulators: FakeSimulator[];
  phones: FakePhone[];
  /** false: only the Command Line Tools are selected, so `xcrun simctl` is not found. */
  xcodeSelected?: boolean;
  /**
   * Runs when `simctl launch` starts this bundle id (a WebDriverAgent runner: the test starts its emulated WDA),
   * with the environment the app gets (SIMCTL_CHILD_<name> passed as <name>, e.g. USE_PORT).
   */
  onLaunch?: Record<string, (launch: SimLaunch) => Promise<void>>;
  /** go-ios log format: logrus JSON (before 1.1, the default) or slog JSON (1.1 and later). */
  goIosLogs?: 'logrus' | 'slog';
  /**
   * Apps that die right after they start (a build for another platform or architecture: facebook/idb#261).
   * `simctl launch` still prints "<id>: <pid>" and exits 0, and `ios launch` still logs "Process launched"
   * {pid} (cmd_device_apps.go: processcontrol StartProcess answers with the new pid and nothing watches it
   * after). WDA then finds SpringBoard in front (XCUIApplication+FBHelpers.m fb_activeApplication, the
   * system app when no other is active) and the app not running (XCUIApplicationState 1).
   */
  crashOnLaunch?: string[];
  /**
   * Commands and options the installed go-ios does not know: a verb ("tunnel", "devmode": before 1.0.122 and 1.0.121),
   * a verb and its subcommand ("tunnel ls"), or a verb and an option ("list --details", "apps --system"), as an
   * older build or an emulation of a few commands lacks them. Answered as docopt answers arguments no usage line
   * matches: the "Usage:" section of what it does know on stderr, exit 1.
   */
  goIosLacks?: string[];
  /** simctl subcommands the installed simctl (or an emulation of it) does not know, e.g. "listapps". */
  simctlLacks?: string[];
}

/** What a fake command prints and exits with (test/harness/bin/fake-cli.mjs writes it out). */
export interface Answer {
  stdout?: string;
  stderr?: string;
  code?: number;
}

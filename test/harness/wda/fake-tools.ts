import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { answerIos } from './fake-go-ios.js';
import { answerXcrun } from './fake-simctl.js';
import type { Answer, FakeToolsConfig } from './fake-tools-config.js';
import { EmulatedUsbmuxd } from './emulated-usbmuxd.js';

/*
 * Answers the fake `xcrun` and `ios` executables of test/harness/bin from the virtual phones' state,
 * in the real tools' formats:
 *   xcrun simctl list devices --json   {"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [{udid, name, state, isAvailable, …}]}}
 *   xcrun simctl listapps <udid>       old-style plist keyed by bundle id (ApplicationType, CFBundle…, SBAppTags)
 *   xcrun simctl get_app_container <udid> <id>   the app's bundle path; fails for an app not installed
 *   xcrun simctl launch <udid> <id>    "<id>: <pid>"; failures "An error was encountered processing the command (domain=…, code=…):"
 *   ios list --details                 {"deviceList": [{Udid, ProductName, ProductType, ProductVersion}]}; exits 1 if any phone is untrusted
 *   ios list                           {"deviceList": ["<udid>", …]}
 *   ios info --udid=<udid>             the phone's lockdown values {ProductType, ProductVersion, …}
 *   ios apps                           [{CFBundleIdentifier, CFBundleName, CFBundleDisplayName, CFBundleShortVersionString, …}] (user apps)
 *   ios tunnel ls                      [{address, rsdPort, udid, userspaceTun, userspaceTunPort}]; fails while no tunnel agent runs
 * The phones' usbmuxd (emulated-usbmuxd.ts) carries connections to their emulated WDA.
 * simctl's answers are made in fake-simctl.ts, go-ios's in fake-go-ios.ts, from the set-up of fake-tools-config.ts.
 * go-ios failures are logrus JSON lines on stderr ({"level":"fatal","msg":…,"err":…}) and exit 1.
 * iOS 17+ without a tunnel: only launch and kill fail (instruments); a phone not attached: "Device not found: <udid>".
 */

export const FAKE_BIN = fileURLToPath(new URL('../../../../test/harness/bin', import.meta.url));

export class FakeIosTools {
  private server: http.Server | undefined;
  /** Every command run, as "tool arg arg…". */
  readonly calls: string[] = [];

  /** The phones' usbmuxd: its `address` is the driver's USBMUXD_SOCKET_ADDRESS. */
  readonly usbmuxd: EmulatedUsbmuxd;

  constructor(readonly config: FakeToolsConfig) {
    this.usbmuxd = new EmulatedUsbmuxd(() => this.config.phones);
  }

  url = '';

  async start(): Promise<void> {
    await this.usbmuxd.start();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { tool, args, env } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tool: string; args: string[]; env?: Record<string, string> };
        this.calls.push([tool, ...args].join(' '));
        this.answer(tool, args, env ?? {})
          .catch((err: unknown): Answer => ({ stderr: `harness error: ${(err as Error).message}\n`, code: 99 }))
          .then((a) => res.end(JSON.stringify(a)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await this.usbmuxd.stop();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Environment for the process under test: the fakes first on PATH (and optionally without one of them). */
  env(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return { ...base, PATH: `${FAKE_BIN}:${base.PATH ?? ''}`, MB_IOS_HARNESS: this.url, USBMUXD_SOCKET_ADDRESS: this.usbmuxd.address };
  }

  /** Pulls the cable: the phone leaves `ios list` and usbmuxd's list, and the connections usbmuxd carried to it close. */
  unplug(udid: string): void {
    const phone = this.config.phones.find((p) => p.udid === udid)!;
    phone.unplugged = true;
    phone.plugged = (phone.plugged ?? 0) + 1;
    this.usbmuxd.unplugged(udid);
  }

  /** Plugs it back in: listed again, under a new usbmuxd device id. */
  replug(udid: string): void {
    this.config.phones.find((p) => p.udid === udid)!.unplugged = false;
  }
  private answer(tool: string, args: string[], env: Record<string, string>): Promise<Answer> {
    if (tool === 'xcrun') return answerXcrun(this.config, args, env);
    return answerIos(this.config, args);
  }
}

import { once } from 'node:events';
import { ANDROID_PROFILE, systemClock, VirtualDevice, type DeviceProfile } from '../../../src/engine/drivers/virtual/index.js';
import { EmulatedAdbd, type AdbdFaults, type ServiceRunner } from './adbd.js';
import { ByteQueue } from './byte-queue.js';
import { DeviceFiles } from './files.js';
import { runMonkey } from './monkey-service.js';
import { releaseSdk } from './phone-quirks.js';
import { PhoneShell } from './phone-shell.js';
import { EmulatedScrcpy } from './scrcpy/emulated-scrcpy.js';
import { runSync } from './sync.js';
import { EmulatedUia2 } from './uia2-service.js';

/**
 * Device-side costs. `instant`: tests. `phone`: what a mid-range phone spends (uiautomator dump about
 * 2 s per field notes and issue 15's 1.5–3 s; a warm UiAutomator2 /source about 90 ms; the server's
 * start about 2.5 s), for benchmarks.
 */
export type PhoneTiming = 'instant' | 'phone';
const PHONE_DUMP_MS = 1800;

/**
 * A virtual Android phone reachable over the ADB transport: `adb connect 127.0.0.1:<port>` to it,
 * then uiautomator dumps, screencaps, input and package commands act on the VirtualDevice.
 */
export class EmulatedPhone {
  readonly phone: VirtualDevice;
  readonly files = new DeviceFiles();
  readonly shell: PhoneShell;
  readonly adbd: EmulatedAdbd;
  /** scrcpy-server 3.3.1 as the phone runs it: faults, injected events, servers alive. */
  readonly scrcpy: EmulatedScrcpy;
  private readonly monkeyPorts = new Set<number>();
  readonly uia2: EmulatedUia2;

  /** `profile`: another screen than the Pixel's (a tablet, a 4K panel), the rest of the phone alike. */
  constructor(faults: AdbdFaults = {}, timing: PhoneTiming = 'instant', profile: DeviceProfile = ANDROID_PROFILE) {
    this.phone = new VirtualDevice(profile, undefined, { clock: systemClock });
    this.shell = new PhoneShell(this.phone, this.files);
    const phoneTiming = timing === 'phone';
    this.shell.quirks.dumpDelayMs = phoneTiming ? PHONE_DUMP_MS : 0;
    this.uia2 = new EmulatedUia2(this.phone, () => this.shell.dumpXml(), phoneTiming ? { startMs: 2500, sourceMs: 90 } : { startMs: 0, sourceMs: 0 });
    this.shell.onMonkeyPort = (port) => this.monkeyPorts.add(port);
    this.shell.uiAutomationHeld = () => this.uia2.holdsUiAutomation;
    const quirks = this.shell.quirks;
    this.scrcpy = new EmulatedScrcpy(this.phone, this.files, {
      screenOn: () => !quirks.screenOff,
      inputReachesApp: () => this.shell.inputReachesApp,
      // As `input keyevent` does in the shell: POWER toggles the screen, WAKEUP only turns it on.
      pressKey: (keycode) => (quirks.screenOff = keycode === 26 ? !quirks.screenOff : false),
    });
    this.adbd = new EmulatedAdbd({
      banner: { name: 'mb_virtual', model: profile.info.model.replace(/\s+/g, '_'), device: 'mb_virtual' },
      faults,
      resolve: (service) => this.resolve(service),
    });
  }

  static async start(faults: AdbdFaults = {}, timing: PhoneTiming = 'instant', profile?: DeviceProfile): Promise<EmulatedPhone> {
    const phone = new EmulatedPhone(faults, timing, profile);
    await phone.adbd.listen();
    return phone;
  }

  get serial(): string {
    return this.adbd.serial;
  }

  get stats() {
    return this.adbd.stats;
  }

  /** Kills the monkey daemon, as a device reboot or an OOM kill would. */
  killMonkey(): void {
    this.monkeyPorts.clear();
  }

  async close(): Promise<void> {
    this.scrcpy.kill();
    await this.adbd.close();
    await this.uia2.stop();
  }

  private resolve(service: string): ServiceRunner | undefined {
    if (service === 'sync:') return (stream) => runSync(stream, this.files);
    const shell = /^(?:shell|exec):(.*)$/s.exec(service);
    if (shell && /^am instrument .*io\.appium\.uiautomator2\.server\.test\//.test(shell[1])) return (stream) => this.uia2.instrument(stream);
    if (shell) {
      if (!shell[1].trim()) return undefined;
      // `am force-stop` of a server package kills the instrumentation's process; the shell prints nothing for it.
      const stopsServer = /\bam force-stop io\.appium\.uiautomator2\.server(?:\.test)?\b/.test(shell[1]);
      const scrcpy = this.scrcpy.launcher(shell[1], this.shell);
      if (scrcpy) return scrcpy;
      return async (stream) => {
        // Taken from the start: the host may write stdin (a streamed APK) before the command reads it.
        const stdin = new ByteQueue(stream);
        if (stopsServer) await this.uia2.forceStop();
        const result = await this.shell.run(shell[1], stdin, service.startsWith('shell:') || releaseSdk(this.shell.quirks) >= 24);
        await stream.write(result.out);
        if (result.open && !stream.closed) await once(stream, 'close');
      };
    }
    const abstract = /^localabstract:(.+)$/.exec(service);
    if (abstract) return this.scrcpy.connect(abstract[1]);
    const tcp = /^tcp:(\d+)/.exec(service);
    if (tcp && Number(tcp[1]) === 6790 && this.uia2.running) return (stream) => this.uia2.bridge(stream);
    if (tcp && this.monkeyPorts.has(Number(tcp[1]))) {
      return (stream) => runMonkey(stream, this.phone, this.stats, {
        denied: () => this.shell.quirks.injectionDenied,
        died: () => this.killMonkey(),
        blocked: () => !this.shell.inputReachesApp,
        toPanel: (numbers, count) => this.shell.toPanel(numbers, count),
      });
    }
    return undefined;
  }
}

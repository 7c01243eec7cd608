import { constants, copyFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CallContext, Driver } from '../../driver.js';
import type { DeviceInfo } from '../../types.js';
import { systemClock, type Clock } from './clock.js';
import { PROFILES, type DeviceProfile, type VirtualModel } from './profile.js';
import { phoneStateProblem, type PhoneState } from './state.js';
import { VirtualDevice } from './virtual-device.js';

export interface ScreenOverride {
  width?: number;
  height?: number;
  /** Device pixels per dp / point. */
  density?: number;
}

export interface VirtualDriverOptions {
  /** Which devices to create, one per entry (default: one Android phone and one iPhone; `ipad` adds an iPad). */
  devices?: VirtualModel[];
  /** Added to every device call; abortable through the call's signal. */
  latencyMs?: number;
  /** Time source for timers (loading screens, toasts); default the system clock. */
  clock?: Clock;
  /** JSON file holding the state of every virtual phone; read at start, written after each change. */
  stateFile?: string;
  /** Portrait screen size and density per model (`ios` is the iPhone, `ipad` the iPad). */
  screen?: Partial<Record<VirtualModel, ScreenOverride>>;
}

interface StateFile {
  schema: 1;
  devices: Record<string, PhoneState>;
}

/** The built-in virtual phones as a Driver. */
export class VirtualDriver implements Driver {
  readonly name = 'virtual';
  readonly devices: VirtualDevice[];
  private fileStamp = '';

  constructor(private readonly options: VirtualDriverOptions = {}) {
    const models = options.devices ?? ['android', 'ios'];
    const count: Record<VirtualModel, number> = { android: 0, ios: 0, ipad: 0 };
    const saved = this.readStateFile();
    this.devices = models.map((model) => {
      const profile = this.profile(model, ++count[model]);
      return new VirtualDevice(profile, saved?.devices[profile.info.id], {
        clock: options.clock ?? systemClock,
        latencyMs: options.latencyMs,
        hooks: { beforeCall: () => this.pickUpOtherProcesses(), changed: (d) => this.save(d.id) },
      });
    });
    this.remember(saved);
  }

  private profile(model: VirtualModel, n: number): DeviceProfile {
    const base = PROFILES[model];
    // A typo ("iphone") made a phone whose profile was undefined, and the driver failed on a bare TypeError.
    if (!base) throw new RangeError(`virtual device option devices names "${String(model)}"; the virtual devices are ${Object.keys(PROFILES).join(', ')}`);
    const o = this.options.screen?.[model] ?? {};
    checkScreen(model, o);
    return {
      ...base,
      info: { ...base.info, id: `virtual-${model}-${n}` },
      width: o.width ?? base.width,
      height: o.height ?? base.height,
      density: o.density ?? base.density,
    };
  }

  device(id: string): VirtualDevice | undefined {
    return this.devices.find((d) => d.id === id);
  }

  async listDevices(_ctx: CallContext): Promise<DeviceInfo[]> {
    return this.devices.map((d) => ({ ...d.info }));
  }

  async open(id: string, _ctx: CallContext): Promise<VirtualDevice | undefined> {
    return this.device(id);
  }

  /** Every phone back to factory state (and the state file with them). */
  reset(): void {
    for (const d of this.devices) d.reset();
    this.save();
  }

  async close(): Promise<void> {
    // State is written synchronously after each change; nothing is pending.
  }

  private others: Record<string, PhoneState> = {};

  private stamp(): string {
    if (!this.options.stateFile) return '';
    try {
      const s = statSync(this.options.stateFile);
      return `${s.mtimeMs}:${s.size}`;
    } catch {
      return '';
    }
  }

  private readStateFile(): StateFile | undefined {
    const file = this.options.stateFile;
    if (!file) return undefined;
    this.fileStamp = this.stamp();
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      // Missing: factory state, and the next change writes the file.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.setAside(file, `cannot be read (${(err as Error).message})`);
      return undefined;
    }
    let parsed: Partial<StateFile>;
    try {
      parsed = JSON.parse(text) as Partial<StateFile>;
    } catch (err) {
      this.setAside(file, `is not valid JSON (${(err as Error).message})`);
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || parsed.schema !== 1 || typeof parsed.devices !== 'object' || parsed.devices === null) {
      this.setAside(file, 'is not a state file of this version ({"schema": 1, "devices": {…}})');
      return undefined;
    }
    const devices: Record<string, PhoneState> = {};
    const problems: string[] = [];
    for (const [id, state] of Object.entries(parsed.devices)) {
      const why = phoneStateProblem(state);
      if (why) problems.push(`${id}: ${why}`);
      else devices[id] = state as PhoneState;
    }
    if (problems.length) this.setAside(file, `holds a phone state this version cannot use (${problems.join('; ')})`);
    return { schema: 1, devices };
  }

  /**
   * The next change rewrites the state file, so one that could not be used (a hand edit gone wrong, a
   * newer version's) is copied beside it first: whatever it held stays there to be mended or compared.
   */
  private setAside(file: string, why: string): void {
    const aside = join(dirname(file), `${basename(file, '.json')}.unreadable-${Date.now()}.json`);
    let kept = true;
    try {
      copyFileSync(file, aside, constants.COPYFILE_EXCL);
    } catch {
      try {
        // Not readable by us, so not copyable: moved instead (the folder is ours to write).
        renameSync(file, aside);
        this.fileStamp = this.stamp();
      } catch {
        kept = false;
      }
    }
    const where = kept ? `it is kept as ${aside}` : 'it could not be kept aside and the next change replaces it';
    process.emitWarning(`the virtual phones' state file ${file} ${why}; ${where}, and the phones it does not describe start from factory state`, 'MobilebridgeStateWarning');
  }

  /** Another process (a CLI call) may have moved the phone on since this one last looked. */
  private pickUpOtherProcesses(): void {
    if (!this.options.stateFile) return;
    const stamp = this.stamp();
    if (stamp === this.fileStamp) return;
    if (!stamp) {
      // The file was deleted (`mobilebridge reset`): start fresh like the next process would.
      this.fileStamp = '';
      for (const d of this.devices) d.reset();
      return;
    }
    const saved = this.readStateFile();
    this.remember(saved);
    for (const d of this.devices) {
      const state = saved?.devices[d.id];
      if (state) d.restore(state);
    }
  }

  /** The phones of the file that this driver does not run (a driver made for Android only): kept on every save. */
  private remember(saved: StateFile | undefined): void {
    const mine = new Set(this.devices.map((d) => d.id));
    this.others = Object.fromEntries(Object.entries(saved?.devices ?? {}).filter(([id]) => !mine.has(id)));
  }

  /** Writes every phone's state; `changed` names the one phone that changed (none: all of them did). */
  private save(changed?: string): void {
    const file = this.options.stateFile;
    if (!file) return;
    if (changed !== undefined && this.stamp() !== this.fileStamp) {
      // Another process wrote while this call ran (a CLI call during a slow install): its states of
      // the phones that did not change here are newer than this process's copies.
      const saved = this.readStateFile();
      this.remember(saved);
      for (const d of this.devices) {
        const theirs = saved?.devices[d.id];
        if (theirs && d.id !== changed) d.restore(theirs);
      }
    }
    const content: StateFile = { schema: 1, devices: { ...this.others, ...Object.fromEntries(this.devices.map((d) => [d.id, d.snapshot()])) } };
    // The phones' fields hold what was typed, a scenario's secret parameters included: owner only.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(content), { mode: 0o600 });
    renameSync(temp, file);
    this.fileStamp = this.stamp();
  }
}

/** Largest side drawn: one screen is width × height × 4 bytes of RGBA, kept a few times per device. */
const MAX_SIDE_PX = 8192;

/** A bad size failed only at the first screenshot, with a renderer's words ("Input Buffer is empty"). */
function checkScreen(platform: VirtualModel, o: ScreenOverride): void {
  for (const side of ['width', 'height'] as const) {
    const v = o[side];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= MAX_SIDE_PX)) {
      throw new RangeError(`virtual device option screen.${platform}.${side} must be a whole number of pixels from 1 to ${MAX_SIDE_PX}; got ${String(v)}`);
    }
  }
  const d = o.density;
  if (d !== undefined && !(Number.isFinite(d) && d > 0 && d <= 20)) {
    throw new RangeError(`virtual device option screen.${platform}.density must be the pixels per dp / point, above 0 and at most 20; got ${String(d)}`);
  }
}

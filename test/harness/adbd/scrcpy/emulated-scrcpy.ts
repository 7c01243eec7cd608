import { execFileSync } from 'node:child_process';
import type { VirtualDevice } from '../../../../src/engine/drivers/virtual/index.js';
import type { DeviceStream, ServiceRunner } from '../adbd.js';
import type { DeviceFiles } from '../files.js';
import type { CommandResult } from '../shell-command.js';
import { parseCommandLine, type SimpleCommand } from '../shell-words.js';
import type { PhonePower, ScrcpyFaults, ScrcpyHost } from './host.js';
import { ScrcpyServerProcess } from './server-process.js';

/**
 * scrcpy-server 3.3.1 on the emulated phone: `shell:` lines that run com.genymobile.scrcpy.Server start
 * a server process; `localabstract:scrcpy_<scid>` connects to the one listening under that name.
 */
export class EmulatedScrcpy implements ScrcpyHost {
  faults: ScrcpyFaults = {};
  clipboard = '';
  /** The phone's SDK_INT and release as the server sees them (tests make it an older phone). */
  android: { api: number; release: string };
  ranJarSha256: string | undefined;
  injected: string[] = [];
  /** Every touch event the controller received, as applied (`down x,y p=1.00 id=-2`), device pixels. */
  touchLog: string[] = [];
  /** The video size of every capture started, by any server (each installs its touch mapping). */
  captures: string[] = [];
  /** Servers started so far (each `app_process` run). */
  launches = 0;
  readonly ffmpeg = findFfmpeg();
  private readonly running = new Map<ScrcpyServerProcess, number>();
  private readonly listening = new Map<string, ScrcpyServerProcess>();

  constructor(
    readonly phone: VirtualDevice,
    readonly files: DeviceFiles,
    /** The screen's power and keyguard, shared with the shell's `input` and `dumpsys power` (always on and unlocked by default). */
    readonly power: PhonePower = { screenOn: () => true, inputReachesApp: () => true, pressKey: () => undefined },
  ) {
    this.android = { api: phone.profile.apiLevel ?? 34, release: phone.info.version };
  }

  /** scrcpy servers alive on the phone right now. */
  get servers(): number {
    return this.running.size;
  }

  /** Launch numbers (1, 2, …) of the servers alive now. */
  get alive(): number[] {
    return [...this.running.values()];
  }

  /**
   * The runner for a shell line, when the line starts scrcpy-server: the commands before it run in the
   * phone's shell first (their output goes to the same stream), then the server, as `;`, `&&` or `||` allow.
   */
  launcher(line: string, shell: { runCommands(commands: SimpleCommand[]): Promise<CommandResult>; quirks: { absent: ReadonlySet<string> } }): ServiceRunner | undefined {
    // A device without app_process: the shell answers the line as for any absent command.
    if (shell.quirks.absent.has('app_process')) return undefined;
    let commands: SimpleCommand[];
    try {
      commands = parseCommandLine(line);
    } catch {
      return undefined;
    }
    const at = commands.findIndex((c) => c.words.includes('app_process') && c.words.includes('com.genymobile.scrcpy.Server'));
    if (at < 0) return undefined;
    const { words, after } = commands[at];
    return async (stream: DeviceStream) => {
      const before = await shell.runCommands(commands.slice(0, at));
      if (before.out.length) await stream.write(before.out);
      if ((after === '&&' && before.code !== 0) || (after === '||' && before.code === 0)) return;
      const server = new ScrcpyServerProcess(this, stream);
      this.running.set(server, ++this.launches);
      await server.run(words);
    };
  }

  /** adbd's connect to a local abstract socket: refused (undefined) unless a server listens there. */
  connect(name: string): ServiceRunner | undefined {
    const server = this.listening.get(name);
    return server && ((stream) => server.accept(stream));
  }

  /** Puts text on the phone's clipboard (an app copying it, or server `by` setting it): every other server's listener reports it. */
  copy(text: string, by?: ScrcpyServerProcess): void {
    this.clipboard = text;
    for (const server of this.running.keys()) if (server !== by) server.clipboardChanged(text);
  }

  /** Kills every server as the low-memory killer or `kill -9` would: no output, sockets closed. */
  kill(): void {
    for (const server of this.running.keys()) server.kill();
  }

  listen(name: string, server: ScrcpyServerProcess): void {
    if (this.running.has(server)) this.listening.set(name, server);
  }

  unlisten(name: string): void {
    this.listening.delete(name);
  }

  exited(server: ScrcpyServerProcess): void {
    this.running.delete(server);
    for (const [name, s] of this.listening) if (s === server) this.listening.delete(name);
  }
}

function findFfmpeg(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

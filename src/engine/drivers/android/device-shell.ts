import type { Readable } from 'node:stream';
import type { CallContext } from '../../driver.js';
import { explainAbort } from '../../deadline.js';
import { ToolError } from '../../errors.js';
import type { AdbAddress } from './adb-address.js';
import { adbRefusal, execOnDevice, execStreaming, mapAdbError, noServerThere, type AdbDeviceClient } from './adb-client.js';
import { throwIfDenied } from './denials.js';
import { SpareTransport } from './spare-transport.js';

/** Echoed after every shell command (text()): a stream that ends without it was cut short. */
const END_MARK = '__mb_end__';
/** How long the adb server may take to say whether a device is still there before its silence is trusted. */
const STATE_CHECK_MS = 2000;

/**
 * Shell commands on one device, with the driver's error mapping: a failure is checked against the
 * adb server's view of the device (gone or offline mid-call is DEVICE_NOT_FOUND), output cut short is
 * never taken for a finished command, and a SecurityException is PERMISSION_DENIED where asked.
 */
export class DeviceShell {
  /** Connections for commands, each opened before it is needed (spare-transport.ts). */
  readonly connections: SpareTransport;

  constructor(
    private readonly serial: string,
    device: AdbDeviceClient,
    private readonly address: AdbAddress,
    /**
     * The device through a client that never starts an adb server, for the checks after a failure: a
     * server started there would not know the device yet, and the user's kill-server would be blamed on it.
     */
    private readonly asked: AdbDeviceClient = device,
  ) {
    this.connections = new SpareTransport(device);
  }

  /** A command whose output is handed to `sink` as it arrives (a raw screen), under the same mapping. */
  stream(command: string, ctx: CallContext, sink: (chunk: Buffer) => void): Promise<void> {
    return this.guard(ctx, 'taking a screenshot', () => execStreaming(this.connections, command, ctx.signal, sink));
  }

  /** A command fed `input` on its stdin (an APK streamed to `pm install-write`), its output as text. */
  async fed(command: string, input: Readable, ctx: CallContext, what: string): Promise<string> {
    return (await this.guard(ctx, what, () => execOnDevice(this.connections, command, ctx.signal, input))).toString('utf8');
  }

  /** Unreadable output is often output cut short by a disconnect, so it goes through the same state check. */
  parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T> {
    return this.guard(ctx, `reading ${what}`, async () => {
      try {
        return work();
      } catch (err) {
        throw new ToolError('INTERNAL', `could not read the ${what} output of ${this.serial}: ${(err as Error).message}`);
      }
    });
  }

  /**
   * `exec:` carries no exit status, and a device that drops mid-command ends the stream as its end would
   * (adb's handle_offline flushes what was printed and closes it): `pm path x && am force-stop x` cut after
   * `pm path` printed looked done. So every command ends by echoing END_MARK, and output without it was cut
   * short: the device must still be there, and even then the command's end was not seen.
   */
  async text(command: string, ctx: CallContext, what: string): Promise<string> {
    const raw = (await this.exec(`${command}; echo ${END_MARK}`, ctx, what)).toString('utf8');
    const end = raw.lastIndexOf(END_MARK);
    if (end >= 0 && raw.slice(end + END_MARK.length).trim() === '') return raw.slice(0, end);
    await this.stillThere(ctx, what);
    throw new ToolError('INTERNAL', `the output of ${what} on ${this.serial} ended before the command did (${raw.length} bytes, without its end mark); it may or may not have run: check before repeating it`);
  }

  private async stillThere(ctx: CallContext, what: string): Promise<void> {
    const said = this.adbState(what).then((state) => (typeof state === 'string' ? state : adbRefusal(state)));
    const state = await Promise.race([said, new Promise<string>((resolve) => setTimeout(resolve, STATE_CHECK_MS, 'device').unref())]);
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (state === 'device') return;
    throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} disconnected during ${what} (adb: ${state}); the command may or may not have run: reconnect it, list devices again, and check before repeating it`);
  }

  /**
   * get-state answers "device" or FAILs with adb's reason for every other state (adb.cpp: it accepts no
   * other): "device offline", "device unauthorized.\n…", "device still authorizing", "device '…' not found".
   * Rejects when no server answers at all: the server went away during the command (another program's
   * "adb kill-server", a crash), which closes every stream as a device's end would.
   */
  private adbState(what: string): Promise<string | unknown> {
    return Promise.resolve(this.asked.getState()).then(String, (refusal: unknown) => {
      // A server exiting after "adb kill-server" may still take the connection, then drop it unanswered.
      const reset = ['ECONNRESET', 'EPIPE'].includes((refusal as { code?: string } | undefined)?.code ?? '');
      if (!noServerThere(refusal) && !reset) return refusal;
      throw new ToolError(
        'DEVICE_NOT_FOUND',
        `the adb server at ${this.address.host}:${this.address.port} went away during ${what} on ${this.serial} (stopped by "adb kill-server" from another program, or crashed); the command may or may not have run: once a server runs again ("adb start-server"), list devices and check before repeating it`,
      );
    });
  }

  /** `text`, with a SecurityException in the output reported as PERMISSION_DENIED. */
  async checkedText(command: string, ctx: CallContext, what: string): Promise<string> {
    const out = await this.text(command, ctx, what);
    throwIfDenied(out, this.serial, what);
    return out;
  }

  exec(command: string, ctx: CallContext, what: string): Promise<Buffer> {
    return this.guard(ctx, what, () => execOnDevice(this.connections, command, ctx.signal));
  }

  /**
   * Maps failures to SPEC codes. An unexplained failure is checked against the server's view of the
   * device: a device that went offline or vanished mid-call is DEVICE_NOT_FOUND, not INTERNAL.
   */
  async guard<T>(ctx: CallContext, what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (ctx.signal.aborted) throw explainAbort(ctx.signal.reason, `${this.serial} had not finished ${what} by then (a phone that stays this slow may be hung: replug it or run "adb reconnect")`);
      const mapped = mapAdbError(err, this.serial, this.address, what);
      if (mapped.code !== 'INTERNAL') throw mapped;
      const state = await this.adbState(what);
      if (state === 'device') throw mapped;
      const why = typeof state === 'string' ? undefined : mapAdbError(state, this.serial, this.address, what);
      if (why && why.code !== 'INTERNAL') throw why;
      throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} disconnected during ${what}; reconnect it and list devices again`);
    }
  }
}

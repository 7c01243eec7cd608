import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { CallContext } from '../../driver.js';
import { timeLeft, timeoutSignal } from '../../deadline.js';
import { ToolError } from '../../errors.js';
import { installRefusal } from './install-failure.js';
import { pushedInstall } from './pushed-install.js';
import { firstLine } from './shell-output.js';

/** What a session install needs of its device: shell round trips, one of them fed with the APK. */
export interface SessionIo {
  serial: string;
  /** A command's output (device errors mapped to SPEC codes). */
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** A command's output, `input` fed to its stdin. */
  fed(command: string, input: Readable, ctx: CallContext, what: string): Promise<string>;
  /** Writes `data` to `path` on the device (for a device without install sessions: pushed-install.ts). */
  push(data: Buffer, path: string, ctx: CallContext): Promise<void>;
}

/**
 * How long before the call's deadline a commit still waiting is given up, so that abandoning the
 * session (one round trip, bounded by the same time) is done before the call answers.
 */
const ABANDON_MARGIN_MS = 5_000;
/** The share of a short deadline kept for the abandon instead. */
const ABANDON_SHARE = 0.2;

/**
 * An install through a package-installer session, as `adb install-multiple` does (adb/client/
 * adb_install.cpp install_multiple_app): `pm install-create -r -S <size>` prints the session id
 * (PackageManagerShellCommand runInstallCreate), `pm install-write -S <size> <id> base.apk -`
 * streams the APK from stdin (doWriteSplit: "Success: streamed <n> bytes"), `pm install-commit <id>`
 * waits for the outcome (doCommitSession: "Success" or "Failure [<status message>]"). Android 5
 * (PackageInstaller's first release, Pm.java) has these commands, so nothing is pushed to the phone.
 *
 * Unlike a plain `pm install`, the install can be taken back: while the commit waits (a phone asking
 * its user, a stuck package manager) `pm install-abandon <id>` destroys the session
 * (PackageInstallerSession.abandon: the waiting commit ends with INSTALL_FAILED_ABORTED).
 */
export class SessionInstall {
  /** Installs under way and how to stop each, for `close` (the device is going away). */
  private readonly running = new Map<AbortController, Promise<void>>();

  constructor(private readonly io: SessionIo) {}

  async install(path: string, ctx: CallContext): Promise<void> {
    const size = (await stat(path)).size;
    const stopped = new AbortController();
    const work = this.run(path, size, ctx, stopped.signal);
    this.running.set(stopped, work);
    try {
      await work;
    } finally {
      this.running.delete(stopped);
    }
  }

  /** Stops every install under way (each abandons its session) and waits until they have. */
  async close(): Promise<void> {
    for (const c of this.running.keys()) c.abort(new ToolError('DEVICE_NOT_FOUND', `${this.io.serial} was closed during the install`));
    await Promise.allSettled([...this.running.values()]);
  }

  private async run(path: string, size: number, ctx: CallContext, closed: AbortSignal): Promise<void> {
    const created = await this.io.text(`pm install-create -r -S ${size}`, ctx, 'creating an install session');
    const id = /Success: created install session \[(\d+)\]/.exec(created)?.[1];
    if (!id && lacksSessions(created)) return this.pushed(path, ctx, 'as the device has no install sessions');
    if (!id) throw this.failure(created, path, 'pm install-create');
    // Given up this long before the deadline; the caller's cancel and a closing device stop it at once.
    const margin = Math.min(ABANDON_MARGIN_MS, timeLeft(ctx) * ABANDON_SHARE);
    const patience = AbortSignal.any([ctx.signal, closed, ...(Number.isFinite(margin) ? [timeoutSignal(Math.max(0, Math.floor(timeLeft(ctx) - margin)))] : [])]);
    let committed: string | undefined;
    let unwritten: string | undefined;
    try {
      const wrote = await this.io.fed(`pm install-write -S ${size} ${id} base.apk -`, createReadStream(path), { signal: patience }, `streaming ${path}`);
      if (new RegExp(`^Success: streamed ${size} bytes`, 'm').test(wrote)) {
        committed = await this.io.text(`pm install-commit ${id}`, { signal: patience }, 'committing the install');
      } else {
        // No answer at all is mostly a device that went away while the APK streamed: one short round
        // trip says so (text() finds a cut stream and asks adb), rather than blaming the phone's installer.
        if (!wrote.trim()) await this.io.text('true', { signal: patience }, `streaming ${path}`);
        unwritten = firstLine(wrote) || 'nothing';
      }
    } catch (err) {
      if (!patience.aborted) {
        await this.abandon(id, AbortSignal.timeout(ABANDON_MARGIN_MS)).catch(() => undefined);
        throw err;
      }
      throw await this.stopped(id, path, ctx, closed, margin);
    }
    if (committed === undefined) {
      // A shell that does not hand the stream to pm's stdin, or a pm without install-write (a device
      // emulation): the APK is pushed instead, once the session holding nothing is gone.
      await this.abandon(id, AbortSignal.timeout(ABANDON_MARGIN_MS)).catch(() => undefined);
      return this.pushed(path, ctx, `as \`pm install-write … -\` did not take the streamed APK (it answered "${unwritten}")`);
    }
    if (/^Success/m.test(committed)) return;
    // A commit that answered ended its session (PackageInstallerSession.dispatchSessionFinished): nothing to abandon.
    throw this.failure(committed, path, 'pm install-commit');
  }

  /** The install adb makes without sessions (pushed-install.ts); `why` says why it is used. */
  private async pushed(path: string, ctx: CallContext, why: string): Promise<void> {
    const installed = await pushedInstall(this.io, path, ctx);
    if (/^Success/m.test(installed)) return;
    throw this.failure(installed, path, `pm install (pushed, ${why})`);
  }

  /** The error for an install stopped before it answered, once its session is abandoned (or could not be). */
  private async stopped(id: string, path: string, ctx: CallContext, closed: AbortSignal, margin: number): Promise<Error> {
    const why = closed.aborted ? (closed.reason as Error) : ctx.signal.aborted ? (ctx.signal.reason as Error) : undefined;
    const left = Number.isFinite(margin) ? margin : ABANDON_MARGIN_MS;
    try {
      await this.abandon(id, AbortSignal.timeout(Math.max(1, Math.floor(left))));
    } catch (err) {
      return new ToolError('TIMEOUT', `installing ${path} on ${this.io.serial} did not finish and its install session ${id} could not be abandoned (${(err as Error).message}): the install may still finish; the phone may be waiting for its own confirmation (MIUI, ColorOS, Vivo, Play Protect): confirm or cancel it there, then check with mobile_list_apps`, true);
    }
    const said = `install session ${id} was abandoned on the phone (pm install-abandon), so nothing was installed and no copy of the APK is left on it`;
    if (why && !(why instanceof ToolError && why.code === 'TIMEOUT')) {
      return new ToolError(why instanceof ToolError ? why.code : 'INTERNAL', `installing ${path} on ${this.io.serial} was stopped (${why.message || 'cancelled by the caller'}); ${said}`, true);
    }
    return new ToolError(
      'TIMEOUT',
      `installing ${path} on ${this.io.serial} did not finish in time; ${said}. The phone may have been waiting for its own confirmation (MIUI "Install via USB", ColorOS, Vivo, Play Protect): be ready to confirm it on the phone and install again`,
      true,
    );
  }

  /** `pm install-abandon` answers "Success" once the session is destroyed (doAbandonSession). */
  private async abandon(id: string, signal: AbortSignal): Promise<void> {
    const out = await this.io.text(`pm install-abandon ${id}`, { signal }, 'abandoning the install session');
    if (!/^Success/m.test(out)) throw new Error(out.trim() || 'no answer');
  }

  /** A refusal by its INSTALL_* code (install-failure.ts), else INTERNAL with what the device said. */
  private failure(out: string, path: string, step: string): ToolError {
    // PackageInstallerService.createSessionInternal refuses a session under the user restriction no_install_apps
    // before any INSTALL_FAILED_* code could come, so the shell prints the SecurityException.
    if (/User restriction prevents installing/.test(out)) {
      return new ToolError('PERMISSION_DENIED', `${this.io.serial} does not allow installing apps: a device policy sets the user restriction no_install_apps (a managed phone or work profile), so ${path} was not installed; ask the device's administrator, or use a device without that policy`);
    }
    const code = /Failure \[([^\]]*)\]/.exec(out)?.[1];
    return (code && installRefusal(code, this.io.serial, path)) || new ToolError('INTERNAL', `installing ${path} on ${this.io.serial} failed at ${step}: ${out.trim() || 'no output'}`);
  }
}

/**
 * Whether `pm install-create` was not understood (a device emulation or a build without install
 * sessions: "Unknown command", a shell's "not found", no output), rather than refused: a refusal
 * says "Failure [" or carries the exception that stopped it.
 */
function lacksSessions(out: string): boolean {
  return !/Failure \[|Exception|Error: java/.test(out);
}

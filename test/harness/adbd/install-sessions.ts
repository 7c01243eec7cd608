import type { DeviceFiles } from './files.js';
import { ok, pmEscaped, type CommandResult } from './shell-command.js';

/** Where a command's stdin comes from: the bytes the host writes on its `exec:` stream. */
export interface Stdin {
  /** Exactly n bytes, or null when the host closed the stream first. */
  read(n: number): Promise<Buffer | null>;
}

interface Session {
  /** The splits written so far, by name ("base.apk"). */
  files: Map<string, Buffer>;
  /** Set while a commit waits for the phone's user: abandoning the session ends that wait. */
  endWait?: (out: string) => void;
}

/** What the package manager does with a committed session's APK: "Success" or "Failure [...]". */
export type InstallApk = (apk: Buffer) => Promise<string>;

/**
 * The package installer's sessions as `pm install-create/-write/-commit/-abandon` reach them. Written
 * from AOSP frameworks/base services/core/java/com/android/server/pm/PackageManagerShellCommand.java
 * (runInstallCreate, doWriteSplit, doCommitSession, doAbandonSession), PackageInstallerService
 * (openSessionInternal) and PackageInstallerSession (abandon, dispatchSessionFinished); Android 5–6's
 * Pm.java prints the same lines.
 */
export class InstallSessions {
  /** Open sessions by id: created and not yet committed to an answer or abandoned. */
  readonly open = new Map<number, Session>();
  /** PackageInstallerService.allocateSessionIdLocked picks random positive ints; these only need to be unlike small counters. */
  private nextId = 1_301_442_671;

  constructor(
    private readonly files: DeviceFiles,
    private readonly sdk: () => number,
  ) {}

  create(): CommandResult {
    const id = this.nextId;
    this.nextId += 7_919;
    this.open.set(id, { files: new Map() });
    return ok(`Success: created install session [${id}]\n`);
  }

  /**
   * `install-write [-S size] <id> <name> <path|->`. From stdin the size is required ("Error: must
   * specify a APK size"); the command reads that many bytes. A host that hangs up first leaves what
   * arrived in the session, and nobody reads the answer.
   */
  async write(args: string[], stdin: Stdin | undefined): Promise<CommandResult> {
    const s = args.indexOf('-S');
    const size = s >= 0 ? Number(args[s + 1]) : -1;
    const [id, name, from] = args.filter((_, i) => s < 0 || (i !== s && i !== s + 1));
    const session = this.session(id, 'install-write');
    if ('code' in session) return session;
    if (from !== '-') {
      const data = this.files.read(from ?? '');
      if (!data) return { out: '', err: `Error: Can't open file: ${from}\n`, code: 255 };
      session.files.set(name, data);
      return ok(`Success: streamed ${data.length} bytes\n`);
    }
    if (!(size > 0)) return { out: '', err: 'Error: must specify a APK size\n', code: 1 };
    const data = stdin ? await stdin.read(size) : null;
    session.files.set(name, data ?? Buffer.alloc(0));
    return ok(`Success: streamed ${size} bytes\n`);
  }

  /**
   * `install-commit <id>`: waits for the outcome. With `confirmation` the phone asks its user first
   * (MIUI "Install via USB", ColorOS, Vivo, Play Protect) and nobody answers: the commit waits until
   * the session is abandoned, then prints what PackageInstallerSession.abandon dispatches.
   */
  async commit(args: string[], confirmation: boolean, install: InstallApk): Promise<CommandResult> {
    const id = args[0];
    const session = this.session(id, 'install-commit');
    if ('code' in session) return session;
    if (confirmation) {
      const out = await new Promise<string>((resolve) => (session.endWait = resolve));
      return { out, code: 1 };
    }
    this.open.delete(Number(id));
    const apk = session.files.get('base.apk') ?? [...session.files.values()][0];
    if (!apk) return { out: 'Failure [INSTALL_FAILED_INVALID_APK: No packages staged]\n', code: 1 };
    const out = await install(apk);
    return { out, code: out.startsWith('Success') ? 0 : 1 };
  }

  /** `install-abandon <id>` (also `install-destroy`): the session and its files are gone; "Success". */
  abandon(args: string[]): CommandResult {
    const id = args[0];
    const session = this.session(id, 'install-abandon');
    if ('code' in session) return session;
    this.open.delete(Number(id));
    session.endWait?.('Failure [INSTALL_FAILED_ABORTED: Session was abandoned]\n');
    return ok('Success\n');
  }

  /**
   * An open session, or what a missing one prints: PackageInstallerService.openSessionInternal throws
   * a SecurityException, which the shell command lets escape (exit 255; Android 11's
   * BasicShellCommandHandler names the command in the first line).
   */
  private session(id: string | undefined, verb: string): Session | CommandResult {
    const found = this.open.get(Number(id));
    if (found) return found;
    if (!/^\d+$/.test(id ?? '')) return pmEscaped(verb, this.sdk(), `java.lang.NumberFormatException: For input string: "${id ?? 'null'}"`);
    return pmEscaped(verb, this.sdk(), `java.lang.SecurityException: Caller has no access to session ${id}`, ['com.android.server.pm.PackageInstallerService.openSessionInternal(PackageInstallerService.java:1012)']);
  }
}

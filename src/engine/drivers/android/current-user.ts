import type { CallContext } from '../../driver.js';

/** Android 7+ (ActivityManagerShellCommand, before 8 Am.java): the current user's id on one line. */
const ASK = 'am get-current-user 2>&1';
/**
 * Android 5–6 have no `get-current-user` (Am answers "Error: unknown command"). The processes section
 * of the activity manager's dump lists the started users most recently shown last ("mUserLru: [0, 10]",
 * ActivityManagerService.dumpProcessesLocked; from 7 UserController.dump prints the same line).
 */
const DUMP = 'dumpsys activity processes';
/** Ends the user's id where it is read in the same round trip as another command. */
const USER_CUT = '__mb_user__';

/**
 * The user whose apps the screen shows. `pm path`, `pm clear`, `pm list packages` and `pm uninstall`
 * act on user 0 unless given `--user` (PackageManagerShellCommand), while `am start`, `cmd package
 * resolve-activity`/`query-activities` and the launcher act on the current user: on a tablet switched
 * to a secondary user or a guest, an app of that user alone looked missing, and `pm clear` cleared the
 * owner's data. The user is read once per device handle (a replug makes a new handle): with the
 * first app listing (`prefix`/`take`), or else in a round trip of its own before the first package
 * command. Switching users while the phone stays connected is not noticed.
 */
export class CurrentUser {
  private known: number | undefined;
  /** `am get-current-user` answered something else (Android 5–6): the dump is read instead. */
  private unanswered = false;

  constructor(private readonly text: (command: string, ctx: CallContext, what: string) => Promise<string>) {}

  /** `--user N ` for pm commands, or '' for user 0, so that phones with one user run the commands as before. */
  async pmOption(ctx: CallContext): Promise<string> {
    this.known ??= await this.read(ctx);
    return this.option!;
  }

  /** `pmOption` once the user is known. */
  get option(): string | undefined {
    if (this.known === undefined) return undefined;
    return this.known === 0 ? '' : `--user ${this.known} `;
  }

  /** Put before a command that does not depend on the user, it reads the user in that round trip while it is not known. */
  get prefix(): string {
    return this.known === undefined && !this.unanswered ? `${ASK}; echo ${USER_CUT}; ` : '';
  }

  /** The output of a command sent with `prefix`, without the user's answer, which is kept. */
  take(out: string): string {
    const cut = out.indexOf(USER_CUT);
    if (cut < 0) return out;
    this.known ??= parseCurrentUser(out.slice(0, cut));
    this.unanswered = this.known === undefined;
    return out.slice(cut + USER_CUT.length).replace(/^\n/, '');
  }

  /** Where an app was looked for, for messages: ' for user N, the one the phone shows now' off the owner's user, else ''. */
  get whose(): string {
    return this.known ? ` for user ${this.known}, the one the phone shows now` : '';
  }

  private async read(ctx: CallContext): Promise<number> {
    const asked = this.unanswered ? undefined : parseCurrentUser(await this.text(ASK, ctx, 'reading the current user'));
    if (asked !== undefined) return asked;
    // A phone that says neither is taken to be the owner's, as before this was read.
    return parseUserLru(await this.text(DUMP, ctx, 'reading the current user')) ?? 0;
  }
}

/** `am get-current-user`'s answer: the id alone on its line; undefined for anything else (an older `am`'s usage text). */
export function parseCurrentUser(out: string): number | undefined {
  const m = /^\s*(\d+)\s*$/.exec(out);
  return m ? Number(m[1]) : undefined;
}

/** The last id of "mUserLru: [0, 10]": the user switched to most recently, the current one. */
export function parseUserLru(out: string): number | undefined {
  const m = /^\s*mUserLru: \[([\d, ]*)\]/m.exec(out);
  const ids = m?.[1].split(',').map((s) => s.trim()).filter(Boolean);
  return ids?.length ? Number(ids[ids.length - 1]) : undefined;
}

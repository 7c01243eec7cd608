import type { PhoneQuirks } from './phone-quirks.js';
import { ok, type CommandResult } from './shell-command.js';

/**
 * The emulated phone's users, written from AOSP: PackageManagerShellCommand (runPath, runClear,
 * runListPackages, runUninstall act on user 0 unless given `--user`; uninstall on every user),
 * ActivityManagerShellCommand.runGetCurrentUser (Android 7+; Am.java before 8) and the processes
 * section of `dumpsys activity` (UserController.dump; ActivityManagerService before 7).
 */

/** `--user N` taken out of a pm command's arguments (UserHandle.parseUserArg: a number, `current`/`cur`, `all`). */
export function takeUser(args: string[], quirks: PhoneQuirks): { user: number | 'all' | undefined; rest: string[] } {
  const at = args.indexOf('--user');
  if (at < 0) return { user: undefined, rest: args };
  const word = args[at + 1] ?? '';
  const user = word === 'all' ? 'all' : word === 'current' || word === 'cur' ? quirks.currentUser : Number(word);
  return { user, rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** The users that exist: the owner, the current one and any a package is installed for. */
export function existingUsers(quirks: PhoneQuirks): Set<number> {
  return new Set([0, quirks.currentUser, ...[...quirks.userInstalls.values()].flatMap((s) => [...s])]);
}

/** Whether an installed package is installed for `user` too (an app with no entry is everyone's; a user that does not exist has none). */
export function installedFor(quirks: PhoneQuirks, pkg: string, user: number): boolean {
  if (!existingUsers(quirks).has(user)) return false;
  return quirks.userInstalls.get(pkg)?.has(user) ?? true;
}

/** Removes `pkg` for one user; true when no user has it left (the package itself goes). */
export function removeFor(quirks: PhoneQuirks, pkg: string, user: number): boolean {
  const left = new Set(quirks.userInstalls.get(pkg) ?? existingUsers(quirks));
  left.delete(user);
  quirks.userInstalls.set(pkg, left);
  if (left.size) return false;
  quirks.userInstalls.delete(pkg);
  return true;
}

/** `am get-current-user`: the id on its line; before Android 7 Am.java has no such command (showError: usage, then the error). */
export function currentUserAnswer(quirks: PhoneQuirks, sdk: number): CommandResult {
  if (sdk < 24) return { out: '', err: "usage: am [subcommand] [options]\n\nError: unknown command 'get-current-user'\n", code: 0 };
  return ok(`${quirks.currentUser}\n`);
}

/** `dumpsys activity processes`, abridged to its users: started users, and the LRU with the current user last. */
export function processesDump(quirks: PhoneQuirks): string {
  const started = [...new Set([0, quirks.currentUser])];
  return [
    'ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)',
    '  mStartedUsers:',
    ...started.map((u) => `    User #${u}: state=RUNNING_UNLOCKED`),
    `  mStartedUserArray: [${started.join(', ')}]`,
    `  mUserLru: [${started.join(', ')}]`,
    '',
  ].join('\n');
}

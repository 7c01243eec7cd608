import { ToolError } from '../../errors.js';
import { parseDisplayManagerAwake } from './display-manager-dump.js';

/*
 * Whether the phone can take input: screen on and no lock screen. Read in one round trip from
 *   `dumpsys power`         "mWakefulness=Awake" | "Asleep" | "Dozing" | "Dreaming" (PowerManagerService, Android 5+)
 *   `dumpsys window policy` "KeyguardServiceDelegate" block (PhoneWindowManager.dump), in one of two layouts:
 *     - its cached KeyguardState: "showing=", "occluded=", "secure=" (Android 6+), and inside it
 *       KeyguardStateMonitor's block with "mTrusted=true" (Android 8+) when a trust agent keeps a secure
 *       lock open; "mShowingLockscreen=true" before Android 6;
 *     - KeyguardReportedState (KeyguardServiceWrapper and KeyguardStateMonitor folded into the delegate;
 *       seen in AOSP trees that already define Android 16 QPR2's SDK level, the release it first shipped
 *       in is not pinned): "showing=", "occluded=", "trusted=", "simSecure=", "currentUser=" (later
 *       "userId="), and no "secure=" line at all, so the layout is told apart by its lines, not the release.
 *   `dumpsys lock_settings` only where the second layout leaves open whether the lock needs a credential.
 * A sleeping screen drops taps and answers uiautomator with "null root node"; a lock screen takes the
 * taps meant for the app. Both used to surface as success or as INTERNAL after retries.
 */
export interface ScreenState {
  awake: boolean;
  locked: boolean;
  /**
   * A PIN, pattern or password lock: only the owner can remove it. undefined: the dump does not say
   * (the KeyguardReportedState layout), until ScreenGuard has asked LockSettingsService, or when that
   * does not say either.
   */
  secure: boolean | undefined;
  /**
   * A trust agent (Smart Lock: a trusted place or device, on-body detection) holds the secure lock
   * open: KeyguardStateMonitor's mTrusted, the delegate's "trusted=" in the newer layout. Dismissing
   * the keyguard then unlocks without the PIN, as swiping it does (KeyguardStateController.canDismissLockScreen:
   * not secure, or trusted).
   */
  trusted: boolean;
  /** Only where `secure` is undefined: the current user ("currentUser="/"userId="), whose lock `dumpsys lock_settings` describes. */
  user?: number;
}

export const SCREEN_STATE_COMMAND = 'dumpsys power; echo __mb_state__; dumpsys window policy';
/** Where `dumpsys power` is missing: the default display's power state (display-manager-dump.ts). */
export const DISPLAY_STATE_COMMAND = 'dumpsys display';
/** KEYCODE_WAKEUP (224) wakes without toggling; `wm dismiss-keyguard` removes a swipe lock (Android 8+). */
export const WAKE_COMMAND = 'input keyevent 224; wm dismiss-keyguard';
/** LockSettingsService.dump; the shell holds android.permission.DUMP, which DumpUtils.checkDumpPermission asks for. */
export const LOCK_SETTINGS_COMMAND = 'dumpsys lock_settings';

export function parseScreenState(out: string): ScreenState | undefined {
  const [power = '', policy = ''] = out.split('__mb_state__');
  const wakefulness = /mWakefulness=(\w+)/.exec(power)?.[1];
  if (!wakefulness) return undefined;
  const delegate = /KeyguardServiceDelegate[\s\S]*?(?=\n\S|$)/.exec(policy)?.[0] ?? '';
  // The delegate's "showing=" is its cached KeyguardState, refreshed only when something asks isShowing();
  // KeyguardStateMonitor's mIsShowing follows SystemUI's callbacks, so where it is printed it decides.
  const monitored = /^\s*mIsShowing=(true|false)/m.exec(policy)?.[1];
  const showing = monitored !== undefined ? monitored === 'true' : /^\s*showing=true/m.test(delegate) || /mShowingLockscreen=true/.test(policy);
  // An activity shown over the lock screen (camera, an incoming call, an alarm, a test app with
  // showWhenLocked) occludes it: input and the UI tree are that activity's, so nothing is in the way.
  const occluded = /^\s*occluded=true/m.test(delegate);
  const trusted = /^\s*(?:mTrusted|trusted)=true/m.test(policy);
  const secure = readSecure(delegate, policy);
  const state: ScreenState = { awake: wakefulness === 'Awake', locked: showing && !occluded, secure, trusted };
  const user = /^\s*(?:currentUser|userId)=(-?\d+)/m.exec(delegate)?.[1];
  return secure === undefined && user !== undefined ? { ...state, user: Number(user) } : state;
}

/**
 * What the dump says of the lock's credential. The older layout prints it ("secure=", "mSecure="
 * before Android 6). KeyguardReportedState has no such field: there a locked SIM (the delegate's
 * isSecure counts simSecure) or a trust agent settles it, since TrustManagerService.refreshAgentList
 * runs agents only for users with a secure lock ("no secure credential"); otherwise it stays open.
 */
function readSecure(delegate: string, policy: string): boolean | undefined {
  const reportedLayout = /^\s*trusted=/m.test(delegate) && !/^\s*secure=/m.test(delegate);
  if (!reportedLayout) return /^\s*secure=true/m.test(delegate) || /mSecure=true/.test(policy);
  return /^\s*(?:simSecure|trusted)=true/m.test(delegate) ? true : undefined;
}

/**
 * Whether `user`'s screen lock needs a PIN, pattern or password, from `dumpsys lock_settings`:
 * LockSettingsService.dumpInternal prints, under "User State:", a "User <id>" line per user and then
 * its "CredentialType: " + LockPatternUtils.credentialTypeToString (NONE for a swipe lock or none,
 * else PATTERN, PIN, PASSWORD or UNKNOWN_<n>). undefined when the dump does not say (another format,
 * an unknown service, no block for that user); with no user known, only an answer all users share.
 */
export function parseCredential(out: string, user: number | undefined): boolean | undefined {
  const types = new Map<number, string>();
  let current: number | undefined;
  for (const line of out.split('\n')) {
    const id = /^\s*User (\d+)\s*$/.exec(line)?.[1];
    if (id !== undefined) current = Number(id);
    const type = /^\s*CredentialType: (\S+)/.exec(line)?.[1];
    if (type !== undefined && current !== undefined && !types.has(current)) types.set(current, type);
  }
  const secure = (type: string | undefined) => (type === undefined ? undefined : type !== 'NONE');
  if (user !== undefined) return secure(types.get(user));
  const answers = new Set([...types.values()].map(secure));
  return answers.size === 1 ? [...answers][0] : undefined;
}

/**
 * Reads the screen state (or completes a `known` one); where the dump leaves the credential open, asks
 * LockSettingsService, once per check: the lock type does not change while we wake and dismiss, and an
 * unlocked phone or the older layout never costs that round trip.
 */
function stateReader(run: (command: string) => Promise<string>): (known?: ScreenState) => Promise<ScreenState | undefined> {
  let credential: Promise<boolean | undefined> | undefined;
  return async (known) => {
    const state = known ?? parseScreenState(await run(SCREEN_STATE_COMMAND)) ?? displayState(await run(DISPLAY_STATE_COMMAND));
    if (!state?.locked || state.secure !== undefined) return state;
    credential ??= run(LOCK_SETTINGS_COMMAND).then((out) => parseCredential(out, state.user));
    return { ...state, secure: await credential };
  };
}

/**
 * A device without `dumpsys power` (a stripped-down build, a device emulation): whether the display is
 * on, from `dumpsys display`, so a sleeping screen is still woken before input. The lock screen is not
 * known there and is taken as not showing, as where nothing can be read.
 */
function displayState(out: string): ScreenState | undefined {
  const awake = parseDisplayManagerAwake(out);
  return awake === undefined ? undefined : { awake, locked: false, secure: false, trusted: false };
}

/** How a refusal names the lock: an unknown credential is not passed off as a swipe lock. */
function lockKind(secure: boolean | undefined): string {
  if (secure === undefined) return ', perhaps with a PIN, pattern or password (Android did not say which lock it has)';
  return secure ? ' with a PIN, pattern or password' : '';
}

const CONFIRMED_FOR_MS = 5000;
const SETTLE_MS = 250;
const SETTLE_ATTEMPTS = 4;

/**
 * Checks the screen before input and after a failed dump, wakes it and removes a swipe lock where
 * possible, and otherwise fails with what the user must do. A usable screen is trusted for a few
 * seconds: the input we inject keeps it awake, so a burst of taps costs one check, not one each.
 */
export class ScreenGuard {
  private confirmedAt = -Infinity;

  constructor(private readonly serial: string) {}

  /** Forget the last confirmation (e.g. after a dump failed in a way a sleeping screen causes). */
  doubt(): void {
    this.confirmedAt = -Infinity;
  }

  /**
   * `run` executes one shell command line on the device and returns its output. `known`: the state
   * the caller has just read (so it is not read again, and not trusted from an earlier check);
   * `blocked`: what a lock screen stops, after "so" (by default, `what` reaching the app).
   */
  async ensureUsable(what: string, run: (command: string) => Promise<string>, { known, blocked }: { known?: ScreenState; blocked?: string } = {}): Promise<void> {
    if (!known && performance.now() - this.confirmedAt < CONFIRMED_FOR_MS) return;
    const read = stateReader(run);
    let state = await read(known);
    if (!state) return this.confirm(); // a build whose dumpsys we cannot read: do not block on it
    // A PIN, pattern or password lock stays whatever we send: waiting for it to go only delays the
    // refusal, and `wm dismiss-keyguard` would pop its bouncer up. A lock of unknown kind is left alone too.
    const mayClear = (s: ScreenState | undefined) => s !== undefined && (!s.awake || (s.locked && (s.secure === false || s.trusted)));
    if (mayClear(state)) {
      await run(WAKE_COMMAND);
      for (let i = 0; i < SETTLE_ATTEMPTS && mayClear(state); i++) {
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        state = await read();
      }
    }
    if (state && !state.awake) {
      throw new ToolError('PERMISSION_DENIED', `the screen of ${this.serial} is off and did not wake for ${what}; press its power button, or keep it on while charging (Developer options › Stay awake)`);
    }
    if (state?.locked) {
      throw new ToolError(
        'PERMISSION_DENIED',
        `${this.serial} is locked${lockKind(state.secure)}, so ${blocked ?? `${what} cannot reach the app`}: unlock it by hand, ` +
          'or set Settings › Security › Screen lock to None (or Swipe) on test devices',
      );
    }
    this.confirm();
  }

  private confirm(): void {
    this.confirmedAt = performance.now();
  }
}

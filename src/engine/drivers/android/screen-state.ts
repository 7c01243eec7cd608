import { ToolError } from '../../errors.js';

/*
 * Whether the phone can take input: screen on and no lock screen. Read in one round trip from
 *   `dumpsys power`         "mWakefulness=Awake" | "Asleep" | "Dozing" | "Dreaming" (PowerManagerService, Android 5+)
 *   `dumpsys window policy` "KeyguardServiceDelegate" block with "showing=true|false" and "secure=true|false"
 *                           (Android 6+), "mShowingLockscreen=true" on older releases; its KeyguardStateMonitor
 *                           block's "mTrusted=true" (Android 8+) when a trust agent keeps a secure lock open.
 * A sleeping screen drops taps and answers uiautomator with "null root node"; a lock screen takes the
 * taps meant for the app. Both used to surface as success or as INTERNAL after retries.
 */
export interface ScreenState {
  awake: boolean;
  locked: boolean;
  /** A PIN, pattern or password lock: only the owner can remove it. */
  secure: boolean;
  /**
   * A trust agent (Smart Lock: a trusted place or device, on-body detection) holds the secure lock
   * open: KeyguardStateMonitor's mTrusted. Dismissing the keyguard then unlocks without the PIN, as
   * swiping it does (KeyguardStateController.canDismissLockScreen: not secure, or trusted).
   */
  trusted: boolean;
}

export const SCREEN_STATE_COMMAND = 'dumpsys power; echo __mb_state__; dumpsys window policy';
/** KEYCODE_WAKEUP (224) wakes without toggling; `wm dismiss-keyguard` removes a swipe lock (Android 8+). */
export const WAKE_COMMAND = 'input keyevent 224; wm dismiss-keyguard';

export function parseScreenState(out: string): ScreenState | undefined {
  const [power = '', policy = ''] = out.split('__mb_state__');
  const wakefulness = /mWakefulness=(\w+)/.exec(power)?.[1];
  if (!wakefulness) return undefined;
  const delegate = /KeyguardServiceDelegate[\s\S]*?(?=\n\S|$)/.exec(policy)?.[0] ?? '';
  const showing = /^\s*showing=true/m.test(delegate) || /mShowingLockscreen=true|mIsShowing=true/.test(policy);
  const secure = /^\s*secure=true/m.test(delegate) || /mSecure=true/.test(policy);
  // An activity shown over the lock screen (camera, an incoming call, an alarm, a test app with
  // showWhenLocked) occludes it: input and the UI tree are that activity's, so nothing is in the way.
  const occluded = /^\s*occluded=true/m.test(delegate);
  const trusted = /^\s*mTrusted=true/m.test(policy);
  return { awake: wakefulness === 'Awake', locked: showing && !occluded, secure, trusted };
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
    const read = async () => parseScreenState(await run(SCREEN_STATE_COMMAND));
    let state = known ?? (await read());
    if (!state) return this.confirm(); // a build whose dumpsys we cannot read: do not block on it
    // A PIN, pattern or password lock stays whatever we send: waiting for it to go only delays the refusal.
    const mayClear = (s: ScreenState | undefined) => s !== undefined && (!s.awake || (s.locked && (!s.secure || s.trusted)));
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
        `${this.serial} is locked${state.secure ? ' with a PIN, pattern or password' : ''}, so ${blocked ?? `${what} cannot reach the app`}: unlock it by hand, ` +
          'or set Settings › Security › Screen lock to None (or Swipe) on test devices',
      );
    }
    this.confirm();
  }

  private confirm(): void {
    this.confirmedAt = performance.now();
  }
}

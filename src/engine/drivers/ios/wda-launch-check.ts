import { sleep, timeoutSignal } from '../../deadline.js';
import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';

/** A WebDriverAgent call of the device (in its session unless `inSession` is false), errors mapped. */
export type WdaCall = (method: string, path: string, body: unknown, ctx: CallContext, inSession?: boolean) => Promise<unknown>;

/** The app in front as WebDriverAgent tells it; bundleId absent when it could tell only the app's name. */
export interface FrontApp {
  bundleId?: string;
  name?: string;
  /** The name was looked for among the installed apps: without a bundleId, it is none of them. */
  nameChecked?: boolean;
  /** Read from /source, as this WebDriverAgent lacks GET /wda/activeAppInfo. */
  fromSource?: boolean;
}

/** What the launch check asks WebDriverAgent; `state` is undefined when this WDA cannot say (no such route). */
export interface LaunchProbe {
  front(pkg: string, ctx: CallContext): Promise<FrontApp>;
  state(pkg: string, ctx: CallContext): Promise<unknown>;
}

/** How long a launched app may take to be reported in front (or running in front) by WebDriverAgent. */
const LAUNCH_CONFIRM_MS = 2000;
/** Between two looks at a launched app, and how much longer WebDriverAgent may take to answer at all. */
const LAUNCH_POLL_MS = 200;
const LAUNCH_PROBE_SLACK_MS = 1500;

/**
 * simctl and go-ios answer a launch once the process exists; an app that dies at start (a build for another
 * platform or architecture often does) looks launched to them. So WebDriverAgent is asked what is in front:
 * session-less GET /wda/activeAppInfo (XCUIApplication fb_activeApplication), and, when another app is named
 * there, POST /wda/apps/state (4: running in the foreground; true also while a system alert of SpringBoard
 * covers the app, which fb_activeApplication then names), for up to LAUNCH_CONFIRM_MS; a WDA without those routes
 * is read through /source (wda-front-app.ts). A WDA that does not answer leaves the launch standing, said to be unconfirmed.
 */
export async function confirmLaunch(ask: LaunchProbe, deviceId: string, pkg: string, launcher: string, ctx: CallContext): Promise<string | undefined> {
  const signal = AbortSignal.any([ctx.signal, timeoutSignal(LAUNCH_CONFIRM_MS + LAUNCH_PROBE_SLACK_MS)]);
  const probe = { ...ctx, signal };
  const until = Date.now() + LAUNCH_CONFIRM_MS;
  let front: FrontApp;
  let state: unknown;
  try {
    for (;;) {
      front = await ask.front(pkg, probe);
      if (front.bundleId === pkg) return undefined;
      state = await ask.state(pkg, probe);
      if (state === 4) return undefined;
      if (front.fromSource && front.bundleId === undefined && !front.nameChecked && state === undefined) {
        const shown = front.name ? `names the app in front only as ${JSON.stringify(front.name)}` : 'does not name the app in front';
        return `not confirmed: WebDriverAgent on ${deviceId} lacks GET /wda/activeAppInfo and POST /wda/apps/state, and its /source ${shown}, which does not tell whether ${pkg} came up; ${launcher} only reports that it was started, so look at the screen before relying on it`;
      }
      if (Date.now() >= until) break;
      await sleep(LAUNCH_POLL_MS, signal);
    }
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const why = signal.aborted ? `did not answer within ${(LAUNCH_CONFIRM_MS + LAUNCH_PROBE_SLACK_MS) / 1000} s` : 'could not be asked';
    return `not confirmed: WebDriverAgent on ${deviceId} ${why}, and ${launcher} only reports that it started the process, so nothing checked that the app came up (look at the screen before relying on it)`;
  }
  const named = front.bundleId ? (front.name ? `${front.name} (${front.bundleId})` : front.bundleId) : front.name ? JSON.stringify(front.name) : 'another app';
  const where = typeof state !== 'number' ? '' : state <= 1 ? ` and ${pkg} is not running (XCUIApplicationState ${state})` : ` and ${pkg} runs in the background (XCUIApplicationState ${state})`;
  throw new ToolError(
    'INTERNAL',
    `${pkg} did not come up on ${deviceId}: ${launcher} started it, but ${LAUNCH_CONFIRM_MS / 1000} s later WebDriverAgent reports ${named} in front${where}. It may have crashed while starting (a build for another platform or architecture often does: check the app's crash log), or been sent away; look at the screen, then launch again`,
  );
}

/**
 * GET /wda/locked (FBCustomCommands.m, no session needed). Asked only after a failure, so a WDA that is
 * not running costs a few seconds at most and leaves the original error standing.
 */

import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { shellQuote } from './adb-client.js';
import { madeUsable, type LaunchIo } from './app-launcher.js';
import { judgeLaunch, startWaiting, unanswered, type LaunchVerdict } from './launch-wait.js';
import type { ScreenState } from './screen-state.js';

/** What opening a link needs: the launcher's shell, look at the screen and wait (app-launcher.ts). */
export type LinkIo = Pick<LaunchIo, 'serial' | 'shell' | 'look' | 'waitMs'> & {
  /** As LaunchIo.makeUsable; its refusal says the link opened behind the lock screen. */
  makeUsable(screen: ScreenState, url: string, ctx: CallContext): Promise<void>;
};

/**
 * The system's "Open with" dialog: PackageManagerService resolves an intent that several apps take,
 * none of them the default, to ResolverActivity (android/com.android.internal.app.ResolverActivity;
 * newer builds may serve it from the IntentResolver module), and `am` starts that instead of an app.
 */
function isChooser(component: string | undefined): boolean {
  return component !== undefined && /\/[\w.$]*(?:ResolverActivity|ChooserActivity)$/.test(component);
}

/**
 * Opens `url` with `am start -W -a VIEW -d`: like a launch (app-launcher.ts), `-W` returns once the
 * app that took the link has drawn, and names that app, so the answer says which app shows the link;
 * a link left in the system's app chooser, or an app that did not come up, is not called opened.
 * Where Android cannot confirm the first frame, the screen and the app in front decide: a dark or
 * locked screen is made usable as before input (the app was started behind it and shows once it is
 * gone; the intent is not sent again, which would open a second page in a browser).
 */
export async function openLink(io: LinkIo, url: string, ctx: CallContext): Promise<string> {
  const what = `opening ${url}`;
  const { wait, waitedMs } = await startWaiting(io, `-a android.intent.action.VIEW -d ${shellQuote(url)}`, ctx, what);
  if (wait?.error) {
    if (/unable to resolve Intent|No Activity found/i.test(wait.error)) {
      throw new ToolError('INVALID_PARAMETER', `no app on ${io.serial} handles ${url}; install the app for this link or check the URL`);
    }
    throw new ToolError('INTERNAL', `opening ${url} on ${io.serial} failed: ${wait.error}`);
  }
  if (isChooser(wait?.activity)) {
    throw new ToolError(
      'INTERNAL',
      `${io.serial} did not open ${url}: several apps take such links and none is the default, so Android shows its "Open with" chooser. ` +
        'Tap the app to use (mobile_list_elements_on_screen lists the choices), or set a default app for these links in Settings › Apps',
    );
  }
  const handler = wait?.activity?.split('/')[0];
  let verdict: LaunchVerdict = unanswered(waitedMs, io.waitMs);
  if (wait) verdict = handler === undefined && wait.status ? { shown: false, why: 'Android did not say which app took the link' } : judgeLaunch(wait, handler ?? '');
  if (verdict.shown) return `${handler} shows it${verdict.note ? `: ${verdict.note}` : ''}`;
  const { front, screen, unknown } = await io.look(ctx);
  if (screen && (!screen.awake || screen.locked)) {
    // The lock, not the app, kept the first frame from being drawn: once it is gone the app shows.
    await io.makeUsable(screen, url, ctx);
    const now = (await io.look(ctx)).front;
    if (now !== undefined && now === handler) return `${madeUsable(screen)}: ${now}, which took the link, is in front now`;
    if (now !== undefined && handler === undefined) return `${madeUsable(screen)}: ${now} is in front now (Android did not say which app took the link), so look at the screen before relying on it`;
    return notUp(io.serial, url, 'it was started behind the lock screen', now, handler);
  }
  if (front !== undefined && (handler === undefined || front === handler)) return `${front} is in front, but ${verdict.why}, so look at the screen before relying on it`;
  if (unknown) return `not confirmed: ${verdict.why}, and ${io.serial} has nothing that names the app in front; look at the screen before relying on it`;
  return notUp(io.serial, url, verdict.why, front, handler);
}

function notUp(serial: string, url: string, why: string, front: string | undefined, handler: string | undefined): never {
  throw new ToolError(
    'INTERNAL',
    `${url} did not come up on ${serial}: ${why}; ${front ? `${front} is in front now` : 'no app is in front now'}` +
      (handler ? `. ${handler}, which took the link, may have crashed while starting (\`adb logcat -b crash\` shows why)` : ''),
  );
}

import type { UiElement } from '../types.js';

/**
 * Android's app error dialogs, found by the resource ids of their buttons (frameworks/base,
 * core/res/res/layout/app_error_dialog.xml and app_anr_dialog.xml, stable since Android 7): an app
 * that crashed ("… has stopped" / "… keeps stopping": aerr_restart, aerr_app_info, aerr_close) or
 * does not respond ("… isn't responding": aerr_wait beside aerr_close). Such a dialog is a system
 * window over the app, and every step meant for the app misses until it is closed.
 */
const CRASH_BUTTONS = new Set(['android:id/aerr_close', 'android:id/aerr_restart', 'android:id/aerr_app_info', 'android:id/aerr_mute']);
const ANR_BUTTON = 'android:id/aerr_wait';

function appErrorKind(elements: readonly UiElement[]): 'crash' | 'anr' | undefined {
  let crash = false;
  for (const e of elements) {
    if (e.resource_id === ANR_BUTTON) return 'anr';
    if (e.resource_id && CRASH_BUTTONS.has(e.resource_id)) crash = true;
  }
  return crash ? 'crash' : undefined;
}

export function showsAppError(elements: readonly UiElement[]): boolean {
  return appErrorKind(elements) !== undefined;
}

/** What to tell a caller when the screen shows one, else undefined (the listing tool's `note`). */
export function appErrorNote(elements: readonly UiElement[]): string | undefined {
  const kind = appErrorKind(elements);
  if (!kind) return undefined;
  const title = elements.find((e) => e.resource_id === 'android:id/alertTitle')?.text;
  const shown = title ? ` ("${title}")` : '';
  return kind === 'anr'
    ? `Android shows its "not responding" dialog${shown}: the app's main thread is stuck, and nothing reaches it until the dialog is closed; ` +
        'tap "Wait" to give it more time or "Close app" to stop it (then launch it again)'
    : `Android shows its app error dialog${shown}: the app crashed, and nothing reaches it until the dialog is closed; ` +
        'tap "Close app" (or "Open app again" where shown), then launch the app again';
}

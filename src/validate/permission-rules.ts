/**
 * A permission prompt shows only until it is answered: an app asks once, and the system keeps the
 * answer with the app's data. A scenario answering one replays only from an app that has not been
 * asked yet, which its preconditions must set up; else its second run on a device finds no prompt.
 */
import { type Context, type Obj, isObj, report, str } from './context.js';

const ANSWERS = new Set(['grant_permission', 'deny_permission']);

/** The preconditions reset the app under test: its data cleared (fresh_install, logged_out, clear_app_data) or it reinstalled. */
function resetsApp(doc: Obj): boolean {
  const pre = doc.preconditions;
  if (!isObj(pre)) return false;
  if (pre.app_state === 'fresh_install' || pre.app_state === 'logged_out') return true;
  const app = str(doc.app_package);
  const actions = Array.isArray(pre.device_actions) ? pre.device_actions : [];
  return actions.some((a) => isObj(a) && (a.action === 'clear_app_data' || a.action === 'uninstall_app') && (a.target_package === undefined || a.target_package === app));
}

/** What resets the app before each run on the scenario's platform, as the runner can do it. */
function remedy(platform: string | undefined): string {
  const android = 'add "preconditions": {"app_state": "fresh_install"} (each run then clears the app\'s data first, which on Android also resets its permissions)';
  const ios = 'reinstall the app before each run with "preconditions": {"device_actions": [{"action": "uninstall_app"}, {"action": "install_app", "value": "<path of the .app or .ipa>"}]} (iOS cannot clear an app\'s data unattended)';
  if (platform === 'android') return android;
  if (platform === 'ios') return ios;
  return `${android}, and for iOS ${ios}`;
}

export function checkPermissionPrompts(ctx: Context, doc: Obj): void {
  if (resetsApp(doc)) return;
  for (const { step, pointer, ancestors } of ctx.steps) {
    const action = str(step.action);
    // A condition (its own or a parent step's) or on_failure skip: the author has said the prompt may not show.
    const conditional = step.condition !== undefined || ancestors.some((id) => ctx.stepById.get(id)?.step.condition !== undefined);
    if (!action || !ANSWERS.has(action) || conditional || step.on_failure === 'skip') continue;
    const id = str(step.id) ?? pointer;
    const fix = remedy(ctx.platform);
    report(
      ctx,
      `${pointer}/action`,
      'permission-prompt-once',
      `step "${id}" (${action}) answers a permission prompt, which an app shows only until it is answered: a run on a device where the app was asked before (the one it was recorded on, or after a first run) finds no prompt and fails at this step, and nothing in the preconditions resets the app. To replay it, ${fix}, or give the step a "condition" that holds only while the prompt shows`,
      fix,
    );
  }
}

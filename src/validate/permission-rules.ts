/**
 * A permission prompt shows only until it is answered: an app asks once, and the system keeps the
 * answer with the app's data. A scenario answering one replays only from an app that has not been
 * asked yet, which its preconditions must set up; else its second run on a device finds no prompt.
 */
import { type Context, type Obj, type StepEntry, isObj, report, str } from './context.js';
import { fileOf } from './v22-rules.js';

const ANSWERS = new Set(['grant_permission', 'deny_permission']);

/**
 * The preconditions reset the app under test: its data cleared (fresh_install, logged_out,
 * clear_app_data) or it reinstalled. iOS cannot clear an app's data, so there only a reinstall does.
 */
function resetsApp(doc: Obj, platform: string | undefined): boolean {
  const pre = doc.preconditions;
  if (!isObj(pre)) return false;
  const clears = platform !== 'ios';
  if (clears && (pre.app_state === 'fresh_install' || pre.app_state === 'logged_out')) return true;
  const app = str(doc.app_package);
  const actions = Array.isArray(pre.device_actions) ? pre.device_actions : [];
  return actions.some((a) => isObj(a) && ((clears && a.action === 'clear_app_data') || a.action === 'uninstall_app') && (a.target_package === undefined || a.target_package === app));
}

/** What resets the app before each run on the scenario's platform, as the runner can do it. */
function remedy(platform: string | undefined): string {
  const android = 'add "preconditions": {"app_state": "fresh_install"} (each run then clears the app\'s data first, which on Android also resets its permissions)';
  const ios = 'reinstall the app before each run with "preconditions": {"device_actions": [{"action": "uninstall_app"}, {"action": "install_app", "value": "<path of the .app or .ipa>"}]} (iOS cannot clear an app\'s data unattended)';
  if (platform === 'android') return android;
  if (platform === 'ios') return ios;
  return `${android}, and for iOS ${ios}`;
}

/**
 * A condition (its own or a parent step's), `optional: true` or on_failure skip: the author has said
 * the prompt may not show, and the run goes on when it does not.
 */
function mayNotAnswer(ctx: Context, { step, ancestors }: StepEntry): boolean {
  if (step.condition !== undefined || step.optional === true || step.on_failure === 'skip') return true;
  return ancestors.some((id) => ctx.stepById.get(id)?.step.condition !== undefined);
}

const idOf = (entry: StepEntry): string => str(entry.step.id) ?? entry.pointer;

const consequence = (at: string): string =>
  `which an app shows only until it is answered: a run on a device where the app was asked before (the one it was recorded on, or after a first run) finds no prompt and fails at ${at} step, and nothing in the preconditions resets the app`;

export function checkPermissionPrompts(ctx: Context, doc: Obj): void {
  const own = ctx.steps.filter((entry) => ANSWERS.has(str(entry.step.action) ?? '') && !mayNotAnswer(ctx, entry));
  const flows = (ctx.flowUses ?? []).filter((use) => use.found.answers.length && !mayNotAnswer(ctx, use.entry));
  const outer = ctx.outer;
  if (outer) {
    // A flow's own preconditions are never applied: the scenario running it says whether the app is reset.
    outer.answers.push(...own.map((entry) => ({ step: idOf(entry), file: outer.file, action: str(entry.step.action)! })));
    for (const { entry, found } of flows) outer.answers.push(...found.answers.map((a) => ({ ...a, step: `${idOf(entry)}.${a.step}` })));
  }
  if (resetsApp(doc, ctx.platform)) return;
  const fix = remedy(ctx.platform);
  const tail = `To replay it, ${fix}, or give the step a "condition" that holds only while the prompt shows`;
  for (const entry of own) {
    const action = str(entry.step.action)!;
    report(ctx, `${entry.pointer}/action`, 'permission-prompt-once', `step "${idOf(entry)}" (${action}) answers a permission prompt, ${consequence('this')}. ${tail}`, fix);
  }
  for (const { entry, flow, found } of flows) {
    const [first, ...more] = found.answers;
    const also = more.length ? ` (and ${more.length} more step${more.length === 1 ? '' : 's'} of it)` : '';
    const step = `${idOf(entry)}.${first.step}`;
    const inFile = first.step.slice(first.step.lastIndexOf('.') + 1);
    report(
      ctx,
      `${entry.pointer}/flow`,
      'permission-prompt-once',
      `step ${step} (${first.action}, step "${inFile}" of ${fileOf(first.file, flow)})${also} answers a permission prompt, ${consequence('that')} (a flow's own preconditions are not applied). ${tail.replace('the step a "condition"', 'this flow step a "condition"')}`,
      fix,
    );
  }
}

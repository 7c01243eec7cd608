import { ACTIONS as SCENARIO_ACTIONS, SCENARIO_BUTTONS, TARGET_ACTIONS, WAIT_TYPE_OF_ACTION, locatorKind } from '../../validate/index.js';
import type { UiElement } from '../types.js';
import { seenName } from './element-name.js';
import { RecordingSecrets } from './recording-secrets.js';
import { scenarioDocument } from './recording-scenario.js';
import type { AssertionRequest, RecordedAssertion, RecordedStep, RecorderSnapshot, RecordingOptions, RecordingSummary } from './recording-types.js';
import { ScenarioIds, snakeCase } from './scenario-ids.js';
import { WorkedIn } from './worked-in.js';
import { describeAssertion, describeStep } from './recording-words.js';
import type { ResolvedElement, VerbOutcome, VerbStep } from './types.js';

/**
 * Turns a live session (verbs an agent ran, assertions it asked for) into a scenario document
 * (schema 2.2, SPEC §3 and §8) that passes the validator and replays with `mobilebridge run`. Both
 * transports (MCP, the bridge's WebSocket) feed one of these per recording; it never touches a
 * device itself.
 */

/** Wait bounds of the schema (WaitConfigSchema). */
const MIN_WAIT_MS = 1000;
const MAX_WAIT_MS = 60_000;
const DEFAULT_WAIT_MS = 10_000;
/** Looks at the screen between two actions after which the agent is taken to have waited for the next target. */
const POLLS_THAT_MEAN_WAITING = 2;

/** Steps that touch the element they resolved: a text field touched has the focus after them. */
const TOUCHES: ReadonlySet<string> = new Set(['tap', 'double_tap', 'long_press']);
/** Steps that only look at the screen: the focus is where it was. */
const LOOKS: ReadonlySet<string> = new Set(['wait_for_element', 'wait_for_element_gone', 'wait_for_loading_complete', 'capture_value']);
const RECORDABLE: ReadonlySet<string> = new Set(SCENARIO_ACTIONS);

function clampWait(ms: number | undefined): number {
  const n = Math.round(ms ?? DEFAULT_WAIT_MS);
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, n));
}

/** What a user sees of the element (element-name.ts, shared with the inspector). */
function seen(resolved: ResolvedElement | null | undefined): string | undefined {
  return resolved ? seenName(resolved) : undefined;
}

export class Recorder {
  readonly options: RecordingOptions;
  private readonly steps: RecordedStep[] = [];
  private readonly assertions: RecordedAssertion[] = [];
  private ids = new ScenarioIds();
  private readonly variables: Record<string, { type: 'string'; description: string }> = {};
  private secrets = new RecordingSecrets();
  private readonly skipped: string[] = [];
  /** Other sessions' actions on the device: how many, and their line in `skipped`. */
  private readonly others = new Map<string, { count: number; index: number }>();
  private appPackage?: string;
  private pollsSinceStep = 0;
  private workedIn = new WorkedIn();
  /**
   * Set while the last step is typing with nothing after it: a viewer sends one key batch per
   * call, and the batches of one field must stay one step (and one secret parameter).
   */
  private openTyping?: { secret: boolean };

  constructor(options: RecordingOptions) {
    this.options = options;
    this.appPackage = options.appPackage;
  }

  get device(): string {
    return this.options.device;
  }

  /** Everything recorded so far, as JSON, so a recording survives a crash (RecordingStore). */
  snapshot(): RecorderSnapshot {
    const { startedAt, ...options } = this.options;
    return {
      options: { ...options, startedAt: (startedAt ?? new Date()).toISOString() },
      steps: this.steps,
      assertions: this.assertions,
      ids: this.ids.list(),
      variables: this.variables,
      skipped: this.skipped,
      appPackage: this.appPackage,
      pollsSinceStep: this.pollsSinceStep,
      looks: this.workedIn.entries(),
      ...(this.openTyping ? { openTyping: this.openTyping } : {}),
      secrets: this.secrets.snapshot(),
    };
  }

  static restore(s: RecorderSnapshot): Recorder {
    const r = new Recorder({ ...s.options, startedAt: new Date(s.options.startedAt) });
    r.steps.push(...s.steps);
    r.assertions.push(...s.assertions);
    r.ids = new ScenarioIds(s.ids);
    Object.assign(r.variables, s.variables);
    r.skipped.push(...s.skipped);
    r.appPackage = s.appPackage;
    r.pollsSinceStep = s.pollsSinceStep;
    r.workedIn = new WorkedIn(s.looks);
    r.openTyping = s.openTyping;
    r.secrets = RecordingSecrets.restore(s.secrets, s.steps);
    return r;
  }

  /** The agent saw these elements: counts toward the app the recording worked in. */
  noteScreen(elements: UiElement[]): void {
    this.workedIn.note(elements);
  }

  /** The app most of the agent's screens belonged to (never a home screen or system overlay). */
  get workedInApp(): string | undefined {
    return this.workedIn.app;
  }

  get lastStepId(): string | undefined {
    return this.steps.at(-1)?.id;
  }

  /** The agent looked at the screen (listing, screenshot) without acting. */
  notePoll(): void {
    this.pollsSinceStep++;
  }

  /**
   * Another session (a second viewer, an agent, a scenario run) acted on the recorded device: the
   * scenario will not hold it, so a replay may not reach the screens this recording saw. Counted per
   * session in one line of the skipped list; the focus may have moved.
   */
  noteOtherSession(origin: string): void {
    let seen = this.others.get(origin);
    if (!seen) {
      seen = { count: 0, index: this.skipped.push('') - 1 };
      this.others.set(origin, seen);
    }
    seen.count++;
    this.skipped[seen.index] =
      `${seen.count} action${seen.count === 1 ? '' : 's'} on ${this.device} by another session (${origin}) while recording: not in the scenario, which holds only this session's actions, so a replay may not reach the same screens; do them in this session if the scenario needs them`;
    this.openTyping = undefined;
    this.secrets.focusMayHaveMoved();
  }

  /** Something the agent did that cannot go into a scenario; reported at stop. */
  noteSkipped(what: string, options: { focusMayMove?: boolean } = {}): void {
    this.skipped.push(what);
    this.openTyping = undefined;
    if (options.focusMayMove) this.secrets.focusMayHaveMoved();
  }

  /**
   * A listing of the device by anyone: which field untargeted typing goes into, and whether it is
   * a password. True when that changed what the recording knows (to be saved).
   */
  noteFields(elements: readonly UiElement[]): boolean {
    return this.secrets.noteFields(elements);
  }

  /**
   * Records a verb that ran. Only passed steps go in (a failed tap did not change the app);
   * returns the ids of the steps written (a wait may come first), empty when nothing was.
   */
  noteVerb(step: VerbStep & { capture_to?: string }, outcome: VerbOutcome): string[] {
    if (outcome.status !== 'passed') return [];
    if (!RECORDABLE.has(step.action)) {
      this.noteSkipped(`${step.action}: not a scenario action`);
      return [];
    }
    // The device has more buttons (VOLUME_UP, VOLUME_DOWN) than a scenario step may press.
    if (step.action === 'press_button' && !(SCENARIO_BUTTONS as readonly string[]).includes(step.value ?? '')) {
      this.noteSkipped(`press_button ${step.value}: a scenario presses only ${SCENARIO_BUTTONS.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`);
      return [];
    }
    // A scenario keeps a read text only as a variable (capture_to is required); a plain read was a look.
    if (step.action === 'capture_value' && !step.capture_to) {
      this.notePoll();
      this.noteSkipped(`read_text of ${JSON.stringify(step.target ?? seen(outcome.resolved) ?? step.target_pattern)} without save_as (capture_to): a scenario keeps a read text only as a variable; give save_as to keep it`);
      return [];
    }
    // ENTER inside a typed text may move the focus (a sign-in form's Email to Password): what
    // follows the newline is judged as untargeted typing of its own, so a password there is a secret.
    const newline = step.action === 'type' ? (step.value ?? '').indexOf('\n') : -1;
    if (newline >= 0 && newline < step.value!.length - 1) {
      const head = this.noteVerb({ ...step, value: step.value!.slice(0, newline + 1) }, outcome);
      return [...head, ...this.noteVerb({ action: 'type', value: step.value!.slice(newline + 1) }, { ...outcome, resolved: null })];
    }
    const written: string[] = [];
    const rec: Omit<RecordedStep, 'id'> = { action: step.action, description: '' };
    if (TARGET_ACTIONS.has(step.action) || step.target || step.target_pattern) {
      const target = step.target && !locatorKind(step.target) ? step.target : seen(outcome.resolved);
      if (target) rec.target = target;
      if (step.target_pattern) rec.target_pattern = step.target_pattern;
      if (TARGET_ACTIONS.has(step.action) && !rec.target && !rec.target_pattern) {
        this.noteSkipped(`${step.action}: the element it acted on has no text or label to name it by`);
        return [];
      }
    }
    if (step.value !== undefined && step.value !== '') rec.value = step.value;
    const intoPassword = step.action === 'type' && this.secrets.typedIntoPassword(outcome.resolved, Boolean(step.target || step.target_pattern));
    // ENTER (a submit, a press_button step) may have moved the focus to another field, a password field among them.
    const enter = (step.action === 'type' && Boolean(rec.value?.endsWith('\n'))) || (step.action === 'press_button' && step.value === 'ENTER');
    if (step.action === 'type' && !step.target && !step.target_pattern && !step.clear_first && rec.value !== undefined && this.continueTyping(rec.value, intoPassword)) {
      if (enter) this.secrets.focusMayHaveMoved();
      this.pollsSinceStep = 0;
      return [this.lastStepId!];
    }
    if (intoPassword && rec.value !== undefined) rec.value = this.secrets.standIn(rec.value, rec.target);
    // The replay must find the field as the verb left it: emptied, then typed into ("" only empties it).
    if (step.action === 'type' && step.clear_first) {
      rec.clear_first = true;
      rec.value ??= '';
    }
    this.noteFocus(step, outcome.resolved, enter);
    if (step.action === 'launch_app') {
      this.appPackage ??= step.value;
      if (rec.value === this.appPackage) delete rec.value;
    }
    const waitType = WAIT_TYPE_OF_ACTION[step.action];
    if (waitType) {
      rec.wait_config = { type: waitType, timeout_ms: clampWait(step.wait_config?.timeout_ms) };
      const indicator = step.wait_config?.indicator;
      if (waitType === 'loading_complete' && indicator) rec.wait_config.indicator = indicator;
    }
    if (step.permission_name) rec.permission_name = step.permission_name;
    if (step.action === 'capture_value' && step.capture_to) {
      rec.capture_to = step.capture_to;
      this.variables[step.capture_to] ??= { type: 'string', description: `read from ${rec.target ?? rec.target_pattern} while recording` };
    }
    // The agent looked at the screen again and again before this: replay waits for the target too.
    if (this.pollsSinceStep >= POLLS_THAT_MEAN_WAITING && rec.target && !waitType && step.action !== 'type') {
      written.push(this.push({ action: 'wait_for_element', description: `Wait for ${rec.target}`, target: rec.target, wait_config: { type: 'element_visible', timeout_ms: DEFAULT_WAIT_MS } }));
    }
    rec.description = describeStep(rec);
    written.push(this.push(rec));
    this.pollsSinceStep = 0;
    if (rec.action === 'type' && !rec.value?.endsWith('\n')) this.openTyping = { secret: intoPassword };
    return written;
  }

  /**
   * Where the focus is after a recorded step. Only a touch on a text field (a tap, a targeted type)
   * says so; a touch elsewhere leaves it where it was or not (a button does not take it, a new
   * screen may focus a field itself), and ENTER, a key, a swipe or a launch may move it: unknown,
   * which counts as a password while one is on screen (a password in clear cannot be taken back).
   */
  private noteFocus(step: VerbStep, resolved: ResolvedElement | null, enter: boolean): void {
    const touched = TOUCHES.has(step.action) || (step.action === 'type' && Boolean(step.target || step.target_pattern));
    if (touched && resolved && (resolved.type === 'edittext' || resolved.password)) this.secrets.focusedOn(resolved);
    else if (step.action !== 'type' && !LOOKS.has(step.action)) this.secrets.focusMayHaveMoved();
    if (enter) this.secrets.focusMayHaveMoved();
  }

  /**
   * Backspace right after typing: the typed text loses its last character (a step typing nothing
   * is dropped unless it empties the field first). A secret parameter stands for the final text, so a secret step stays as it is.
   * False when no typing is open to take it.
   */
  eraseTyped(): boolean {
    const last = this.steps.at(-1);
    if (!this.openTyping || last?.action !== 'type' || last.value === undefined) return false;
    if (this.openTyping.secret) return true;
    last.value = [...last.value].slice(0, -1).join('');
    if (last.value || last.clear_first) {
      last.description = describeStep(last);
      last.id = this.ids.rename(last.id, snakeCase(`type_${last.target ?? last.value}`, 'type'));
    } else {
      this.ids.release(last.id);
      this.steps.pop();
      this.openTyping = undefined;
    }
    return true;
  }

  /**
   * Appends typing to the step just recorded when it typed into the same field. A secret
   * parameter stands for everything typed into its field, so a secret step stays `${NAME}`.
   */
  private continueTyping(value: string, secret: boolean): boolean {
    const last = this.steps.at(-1);
    if (!this.openTyping || this.openTyping.secret !== secret || last?.action !== 'type' || last.value === undefined) return false;
    const submit = value.endsWith('\n');
    if (secret) {
      if (submit) last.value += '\n';
    } else {
      last.value += value;
      // The id was made from the first key batch ("type_d"); name it after the whole text.
      last.id = this.ids.rename(last.id, snakeCase(`type_${last.target ?? last.value}`, 'type'));
    }
    last.description = describeStep(last);
    if (submit) this.openTyping = undefined;
    return true;
  }

  /**
   * Records an assertion that passed live, after the last recorded step. Returns its id, or why
   * it was not recorded (nothing recorded yet, or it did not pass).
   */
  noteAssertion(request: AssertionRequest, passed: boolean): { id?: string; reason?: string } {
    const after = this.lastStepId;
    if (!after) return { reason: 'no step has been recorded yet, and an assertion must follow a step; run a verb (e.g. launch_app) first' };
    if (!passed) return { reason: 'it did not pass now, so a replay would fail on it; check the screen and assert what it shows' };
    const { type, description, ...fields } = request;
    const id = this.ids.claim(snakeCase(`check_${String(fields.element_description ?? fields.expected_text ?? fields.expected_substring ?? type)}`, 'check'));
    const assertion = { id, after_step: after, type, description: description?.trim() || describeAssertion(request), ...fields } as RecordedAssertion;
    this.assertions.push(assertion);
    // Typing after a check is a new step: the check must still see the text as it was.
    this.openTyping = undefined;
    return { id };
  }

  summary(): RecordingSummary {
    return { device: this.device, name: this.options.name, steps: this.steps.length, assertions: this.assertions.length, skipped: [...this.skipped] };
  }

  /** The package the scenario is about, if known yet. */
  get app(): string | undefined {
    return this.appPackage;
  }

  /**
   * The scenario document. `appPackage` (the foreground app) and `appVersion` come from the
   * device at stop when the recording did not name them.
   */
  toScenario(facts: { appPackage?: string; appVersion?: string } = {}): Record<string, unknown> {
    const { options, appPackage, steps, assertions, variables } = this;
    return scenarioDocument({ options, appPackage, steps, assertions, variables, parameters: this.secrets.parameters }, facts);
  }

  private push(step: Omit<RecordedStep, 'id'>): string {
    // Ids read better without the article, as the inspector's examples do: tap_email_field.
    const base = snakeCase(`${step.action}_${step.target?.replace(/^the\s+/i, '') ?? step.value ?? step.permission_name ?? ''}`, step.action);
    const id = this.ids.claim(base);
    this.steps.push({ id, ...step });
    this.openTyping = undefined;
    return id;
  }
}

import { join } from 'node:path';
import { type AnyStep, type Assertion, type AssertionResult, type Observation, type ResultDocument, type Scenario, type StepResult, type VariableDeclaration } from '../../validate/index.js';
import type { ScreenCapture } from '../screen/capture.js';
import type { ElementListing } from '../driver.js';
import type { DeviceInfo, UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { isToast, textOf, keyboardVisible, listElements, resolveOnce, screenCapture, screenshotPng, verbScreenSize, type VerbContext } from '../verbs/index.js';
import { darkMode, evaluateAssertion, type AssertionEnv } from '../assertions/index.js';
import { readFacts, type DeviceFacts } from '../verbs/device-facts.js';
import { judgeAssertion } from './assertion-gate.js';
import { ParameterScope, plannedSteps } from './flows.js';
import { paths, writeFileAtomic } from './result-file.js';
import { hideSecretPixels } from './secret-pixels.js';
import type { ProgressEvent } from './types.js';
import { interpolateFields, type VariableValue } from './variables.js';

/**
 * Everything one run shares: the result document being built, variables, step statuses, the
 * toasts seen during the current step, and the writing of results and screenshots.
 */
export class RunState {
  readonly statuses = new Map<string, StepResult['status']>();
  readonly needsManual: string[] = [];
  readonly variables: Record<string, VariableValue>;
  readonly declared: Record<string, VariableDeclaration>;
  readonly scenarioId: string;
  /** The toasts seen during each step still open (a parent's or a flow's stays open while its inner steps run). */
  private readonly toastWindows = new Set<string[]>();
  private readonly textsBefore = new Map<string, string | null>();
  private readonly byStep = new Map<string, Assertion[]>();
  private readonly evaluated = new Set<string>();
  private writing: Promise<void> = Promise.resolve();
  /** Parameters in scope and the secret mask (2.2); set by the runner before the first step. */
  scope = new ParameterScope(undefined);

  constructor(
    readonly doc: ResultDocument,
    readonly verbs: VerbContext,
    readonly scenario: Scenario,
    readonly info: DeviceInfo,
    private readonly opts: { outDir: string; scenarioDir: string; settleMs: number; screenshots: 'steps' | 'checkpoints' | 'none'; signal?: AbortSignal; onProgress?: (e: ProgressEvent) => void },
  ) {
    this.scenarioId = scenario.scenario_id;
    this.declared = scenario.variables ?? {};
    this.variables = doc.captured_variables;
    for (const a of scenario.assertions) this.byStep.set(a.after_step, [...(this.byStep.get(a.after_step) ?? []), a]);
    verbs.onElements = (elements) => this.noteToasts(elements);
  }

  get resultFile(): string {
    return paths.result(this.opts.outDir, this.doc.run_id);
  }

  /** Set when the result document or a screenshot could not be written (a full disk): the run stops as `error`. */
  storageError?: Error;
  /** The step that was running when the run was cancelled (its record is not written: it did not finish). */
  cancelledDuring?: string;
  /** The assertion being judged when the run was cancelled ("assertion a1 after step home"): left undecided. */
  cancelledInCheck?: string;

  /** Whether the run must stop: cancelled by its caller, or unable to write its results. */
  cancelled(): boolean {
    return this.opts.signal?.aborted === true || this.storageError !== undefined;
  }

  facts(): Promise<DeviceFacts> {
    return readFacts(this.verbs, this.info);
  }

  observe(o: Observation): void {
    this.doc.observations.push(o);
  }

  /**
   * Opens the toast window of a step: every toast seen from now until endStep, its assertions
   * included. The window of a parent or a flow step spans its inner steps too, as its assertions do.
   */
  beginStep(): string[] {
    const seen: string[] = [];
    this.toastWindows.add(seen);
    return seen;
  }

  endStep(seen: string[]): void {
    this.toastWindows.delete(seen);
  }

  private noteToasts(elements: UiElement[]): void {
    for (const e of elements) if (isToast(e) && (e.text || e.accessibility_label)) for (const seen of this.toastWindows) seen.push(e.text || e.accessibility_label!);
  }

  /** text_changed needs the element's text as it was before the step. */
  async recordTextsBefore(stepId: string): Promise<void> {
    const wanted = (this.byStep.get(stepId) ?? []).filter((a): a is Extract<Assertion, { type: 'text_changed' }> => a.type === 'text_changed');
    if (!wanted.length) return;
    const elements = await listElements(this.verbs).catch(() => []);
    for (const a of wanted) {
      try {
        const live = interpolateFields(a, this.values());
        const r = await resolveOnce(this.verbs, { description: live.element_description, intent: 'read' }, elements);
        this.textsBefore.set(a.id, r.ok ? textOf(r.element, elements) : null);
      } catch {
        this.textsBefore.set(a.id, null);
      }
    }
  }

  async screenshotFor(rec: StepResult, step: { id: string; checkpoint?: boolean }, failed: boolean): Promise<void> {
    const mode = this.opts.screenshots;
    if (mode === 'none' || (mode === 'checkpoints' && !step.checkpoint && !failed)) return;
    rec.screenshot = (await this.saveScreenshot(step.id)) ?? rec.screenshot;
  }

  /** Whether assertions follow this step. */
  hasAssertions(stepId: string): boolean {
    return (this.byStep.get(stepId)?.length ?? 0) > 0;
  }

  /**
   * The screen now, saved under `name` in the run's screenshots; undefined when it could not be taken or
   * written. In a run with secrets, what shows one is painted over first (secret-pixels.ts); a screen
   * that cannot be listed then is not written at all, since nothing says where a secret may show.
   */
  async saveScreenshot(name: string): Promise<string | undefined> {
    try {
      let png = await screenshotPng(this.verbs);
      if (this.scope.mask.active) png = (await hideSecretPixels(png, await listElements(this.verbs), this.scope.mask)).png;
      const rel = paths.screenshotRel(this.scenarioId, this.doc.run_id, name);
      await writeFileAtomic(join(this.opts.outDir, rel), png, this.opts.outDir).catch((err: Error) => {
        this.storageError ??= err;
        throw err;
      });
      return rel;
    } catch {
      // A missing screenshot must not change the verdict (the device may be gone: the step says so).
      return undefined;
    }
  }

  async stepDone(rec: StepResult): Promise<void> {
    await this.write();
    this.progress({ type: 'step', run_id: this.doc.run_id, step: rec });
  }

  /** Evaluates the assertions that follow this step, in document order. */
  async assertAfter(stepId: string, screenshot: string | null, toastsSeen: readonly string[]): Promise<void> {
    const list = this.byStep.get(stepId);
    if (!list?.length || this.cancelled()) return;
    let elements: Promise<ElementListing> | undefined;
    let shot: Promise<ScreenCapture> | undefined;
    let screen: ScreenSize | undefined;
    const env: AssertionEnv = {
      verbs: this.verbs,
      elements: () => (elements ??= listElements(this.verbs)),
      screenshot: () => (shot ??= screenCapture(this.verbs)),
      screen: async () => (screen ??= await verbScreenSize(this.verbs)),
      variables: this.values(),
      textBefore: (id) => this.textsBefore.get(id),
      toastsSeen,
      scenarioDir: this.opts.scenarioDir,
      darkMode: () => darkMode(this.verbs),
      keyboard: () => keyboardVisible(this.verbs),
    };
    const refresh = () => {
      elements = undefined;
      shot = undefined;
    };
    for (const a of list) {
      if (this.cancelled()) return;
      const conditions = { verbs: this.verbs, facts: () => this.facts(), variables: this.values(), stepStatus: (id: string) => this.statuses.get(id) };
      let lookedAgain = false;
      const again = () => {
        lookedAgain = true;
        refresh();
      };
      const judged = await judgeAssertion(a, (settleMs) => this.evaluate(a, env, refresh, settleMs), this.opts.settleMs, this.verbs, again, conditions);
      // The step's screenshot shows the screen before a waiting assertion's wait, not the one it was judged on.
      const own = lookedAgain && screenshot !== null ? await this.saveScreenshot(`${stepId}+${a.id}`) : undefined;
      // Not checked before the cancel (the loop returns above), so it came while this one was judged: the summary names it.
      if (judged.status === 'skipped' && this.cancelled()) this.cancelledInCheck ??= `assertion ${a.id} after step ${stepId}`;
      const result: AssertionResult = { ...judged, screenshot: own ?? screenshot };
      this.addAssertion(result);
      this.evaluated.add(a.id);
      this.progress({ type: 'assertion', run_id: this.doc.run_id, assertion: result });
    }
    await this.write();
  }

  private async evaluate(a: Assertion, env: AssertionEnv, refresh: () => void, settleMs: number): Promise<Omit<AssertionResult, 'screenshot'>> {
    let live: Assertion;
    try {
      live = interpolateFields(a, this.values());
    } catch (err) {
      return { assertion_id: a.id, type: a.type, status: 'error', message: (err as Error).message };
    }
    // The baseline a first run records is named by the path: a secret filled into it (passed into a
    // flow, where the validator cannot see it is one) would be a file name anyone listing the folder reads.
    if (live.type === 'screenshot_match' && a.type === 'screenshot_match' && this.scope.mask.occursIn(live.reference_screenshot) && !this.scope.mask.occursIn(a.reference_screenshot)) {
      return { assertion_id: a.id, type: a.type, status: 'error', message: `reference_screenshot "${a.reference_screenshot}" would name the baseline file after a secret parameter's value; name the file without the secret` };
    }
    return evaluateAssertion(live, env, settleMs, refresh);
  }

  /**
   * The assertions of a step whose work did not happen, and of the steps nested under it, are skipped
   * (SPEC §8). `what` says what became of the step: "did not run (condition false: …)", "failed, so …".
   */
  skipAfter(step: AnyStep, what: string): void {
    const ids = new Set<string>();
    // A flow step's own steps (2.2) are expanded under its id, like sub-steps.
    for (const s of plannedSteps([step], this.scope.plan?.flows)) ids.add(s.id);
    for (const a of this.scenario.assertions) {
      if (!ids.has(a.after_step) || this.evaluated.has(a.id)) continue;
      this.evaluated.add(a.id);
      // A nested step whose assertions are still open never ran: one that ran closed them itself.
      const message = a.after_step === step.id ? `skipped: step ${step.id} ${what}` : `skipped: step ${a.after_step} did not run: it is inside step ${step.id}, which ${what}`;
      this.addAssertion({ assertion_id: a.id, type: a.type, status: 'skipped', message, screenshot: null });
    }
  }

  /** Assertions whose step never ran are skipped, so the totals add up. */
  closeUnevaluated(reason: string): void {
    for (const a of this.scenario.assertions) {
      if (this.evaluated.has(a.id)) continue;
      const message = this.statuses.has(a.after_step) ? `skipped: not checked after step ${a.after_step} (${reason})` : `skipped: step ${a.after_step} did not run (${reason})`;
      this.addAssertion({ assertion_id: a.id, type: a.type, status: 'skipped', message, screenshot: null });
    }
  }

  /** Each record carries every field of SPEC §5; what was not looked at (skipped, errors) is null. */
  private addAssertion(r: AssertionResult): void {
    const all = this.doc.assertion_results;
    all.push({ assertion_id: r.assertion_id, type: r.type, status: r.status, expected: r.expected ?? null, actual: r.actual ?? null, message: r.message, screenshot: r.screenshot ?? null });
    this.doc.total_assertions = all.length;
    this.doc.passed_assertions = all.filter((x) => x.status === 'passed').length;
    this.doc.skipped_assertions = all.filter((x) => x.status === 'skipped').length;
    this.doc.failed_assertions = all.length - this.doc.passed_assertions - this.doc.skipped_assertions;
  }

  /** What `${NAME}` may name at this point of the run: parameters in scope and captured variables. */
  values(): Record<string, VariableValue> {
    return this.scope.values(this.variables);
  }

  /** Progress goes out with secrets masked, like everything else the run says. */
  progress(e: ProgressEvent): void {
    this.opts.onProgress?.(this.scope.mask.deep(e));
  }

  /**
   * Writes the document atomically; writes are chained so an older one never lands last. Never
   * rejects: a failure (DISK_FULL...) is kept in storageError, which stops the run as `error`, and
   * the last document written stays on disk as it was.
   */
  write(): Promise<void> {
    // Values only: masking the serialized text would reach names and numbers (a secret "x" or "3").
    const content = JSON.stringify(this.scope.mask.deep(this.doc), null, 2);
    this.writing = this.writing.then(() =>
      writeFileAtomic(this.resultFile, content, this.opts.outDir).catch((err: Error) => {
        this.storageError ??= err;
      }),
    );
    return this.writing;
  }
}

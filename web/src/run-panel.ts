import { ConnectionClosedError, type BridgeClient } from '../../src/protocol/client.js';
import { isFailureResult } from '../../src/protocol/methods.js';
import { el } from './dom.js';
import { requestFailedText } from './request-failure.js';
import { declaredParameters, flowKey, flowParametersAsked, type FormParameter } from './run-parameters.js';
import { RunForm } from './run-form.js';
import { asResult, assertionsByStep, pendingText, screenshotUrl, shown, verdictLine, type AssertionView, type PendingAssertion, type ResultView, type RunStatus, type StepView } from './run-model.js';

export interface RunPanelParts {
  runButton: HTMLButtonElement;
  cancelButton: HTMLButtonElement;
  paramsForm: HTMLFormElement;
  result: HTMLElement;
  /** The Validate tab's editor: what is run. */
  text: HTMLTextAreaElement;
  /**
   * Lists a run's refusal in the validator's place. The run validates with the bridge's folder, so
   * its errors (a flow file it cannot read) can be ones the folder-less Validate only warned about.
   */
  showRefusal: (envelope: unknown, scenario: string) => void;
}

/**
 * The Validate tab's Run: runs the scenario in the editor on the watched device (scenarios.run),
 * shows its 2.2 parameters in a form first (secret ones in password inputs), shows each
 * step and assertion as `scenario.progress` reports it, then the result document's verdict with
 * the step screenshots, and cancels on request (scenarios.cancel).
 */
export class RunPanel {
  private runId: string | undefined;
  /** The device the run was started on: the page may show another one by now, the run goes on there. */
  private runDevice: string | undefined;
  private running = false;
  /**
   * The connection dropped before the run's answer came. The run goes on on the bridge (it lasts as
   * long as the session, which a reconnect resumes), so the panel keeps following its progress and
   * takes the verdict from its `finished` event; the Run button stays off so as not to start a
   * second run beside it.
   */
  private detached = false;
  /** The object URL behind the last run's download link, let go when the next result replaces it. */
  private resultUrl: string | undefined;
  /** What the run's progress events said, for a verdict without the result document. */
  private seen: { steps: StepView[]; assertions: AssertionView[]; resultFile?: string; finished?: { status: RunStatus; summary: string } } = { steps: [], assertions: [] };
  private readonly form: RunForm;
  /**
   * The flows' parameters the bridge asked for (the page cannot read flow files), while the
   * scenario's flow steps stay as they were then (`key`).
   */
  private flowParams: { key: string; params: FormParameter[] } = { key: '', params: [] };
  /** The running scenario's assertions by the step they follow: shown as pending once that step is reported. */
  private pending = new Map<string, PendingAssertion[]>();
  private steps!: HTMLOListElement;
  private checks!: HTMLUListElement;

  constructor(
    private readonly client: BridgeClient,
    private readonly parts: RunPanelParts,
    private readonly device: () => string | undefined,
    /** Who holds the device and the page's button to take it, for a run the lock refused (the viewer's lockAdvice). */
    private readonly lockAdvice: () => string | undefined = () => undefined,
  ) {
    this.form = new RunForm(parts.paramsForm);
    parts.runButton.addEventListener('click', () => void this.start());
    parts.paramsForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.start();
    });
    parts.cancelButton.addEventListener('click', () => void this.cancel());
    client.on('scenario.progress', (p) => this.progress(p as Record<string, unknown>));
    client.onSession((e) => {
      if (!this.detached) return;
      if (!e.resumed) {
        this.message('The connection was away longer than the bridge keeps a session, so the run stopped with it (a run lasts no longer than its session). Run it again once the device is free.', 'bad');
        return this.end();
      }
      this.status(`Reconnected: following the run on ${this.runDevice ?? 'the device'}…`);
      if (e.dropped) this.note(`${e.dropped} progress message${e.dropped === 1 ? ' was' : 's were'} lost during the drop: some steps may be missing below.`);
    });
    client.onState((state) => {
      if (state !== 'closed' || !this.detached) return;
      this.message('The connection is lost for good: the run may still be going on the bridge, which stops it when this session ends. Reload the page to see the device again.', 'bad');
      this.end();
    });
  }

  private async start(): Promise<void> {
    if (this.running) return;
    const scenario = this.parts.text.value;
    const device = this.device();
    if (!scenario.trim()) return this.message('Paste a scenario (JSON) or open a file first.', 'bad');
    if (!device) return this.message('Choose a device first: the scenario runs on the device shown.', 'bad');
    const parameters = this.parameters(scenario);
    if (!parameters) return;
    this.running = true;
    if (await this.recordingOn(device)) {
      this.running = false;
      return this.message(`You are recording on ${device}: stop the recording first, or the run's taps and typing become steps of it.`, 'bad');
    }
    this.runId = undefined;
    this.runDevice = device;
    this.seen = { steps: [], assertions: [] };
    this.pending = assertionsByStep(scenario);
    delete this.parts.result.dataset.run;
    this.parts.runButton.disabled = true;
    this.parts.cancelButton.hidden = false;
    this.parts.cancelButton.disabled = false;
    this.steps = el('ol', { class: 'run-steps', 'aria-label': 'Steps' });
    this.checks = el('ul', { class: 'run-checks', 'aria-label': 'Assertions' });
    this.parts.result.replaceChildren(el('p', { class: 'verdict running', 'data-status': 'running' }, `Running on ${device}…`), this.steps, this.checks);
    let answer: unknown;
    try {
      answer = await this.client.request('scenarios.run', { device, scenario, refuse_missing_parameters: true, ...(Object.keys(parameters).length ? { parameters } : {}) });
    } catch (err) {
      // A dropped connection does not stop the run (a reconnect resumes the session): it is followed on.
      if (err instanceof ConnectionClosedError && this.client.state !== 'closed' && this.runId !== undefined) return this.detach();
      if (err instanceof ConnectionClosedError) {
        // Not seen to start: it may have, and a second Run would go beside it.
        this.message(`No answer from the bridge: ${err.message}. The run may have started before the connection dropped: look at the Activity tab (or the device's lock) before running it again.`, 'bad');
      } else this.message(requestFailedText('The run did not complete', err), 'bad');
      return this.end();
    }
    this.finished(answer, scenario);
    this.end();
  }

  private detach(): void {
    if (this.seen.finished) return this.verdictFromProgress();
    this.detached = true;
    this.status(`The connection dropped during the run. The run goes on on the bridge; this page follows it again once reconnected…`);
  }

  private end(): void {
    this.running = false;
    this.detached = false;
    this.parts.runButton.disabled = false;
    this.parts.cancelButton.hidden = true;
  }

  /** The verdict as the run's progress told it: its `finished` event, the steps and assertions reported. */
  private verdictFromProgress(): void {
    const finished = this.seen.finished!;
    this.renderResult({ run_id: this.runId!, status: finished.status, summary: finished.summary, steps_executed: this.seen.steps, assertion_results: this.seen.assertions });
    this.note(`The connection dropped before the run's answer came; this verdict is from its progress messages.${this.seen.resultFile ? ` The full result document is on the bridge: ${this.seen.resultFile}` : ''}`);
    this.end();
  }

  /** The line that says the run is going on. */
  private status(text: string): void {
    const line = this.parts.result.querySelector('.verdict.running');
    if (line) line.textContent = text;
  }

  /** This session records on the device (the run's device calls would be recorded with its origin). */
  private async recordingOn(device: string): Promise<boolean> {
    const status = (await this.client.requestRaw('recording.status', {}).catch(() => undefined)) as { recordings?: { device: string }[] } | undefined;
    return Boolean(status?.recordings?.some((r) => r.device === device));
  }

  /** The values to send, or undefined after showing the form for new parameters or naming the missing ones. */
  private parameters(scenario: string): Record<string, string> | undefined {
    const params = this.formParameters(scenario);
    if (this.form.show(params) && params.length) {
      const needed = params.filter((p) => p.default === undefined).map((p) => p.name);
      const defaulted = params.filter((p) => p.default !== undefined).map((p) => p.name);
      const says = [needed.length ? `needs ${needed.join(', ')}` : '', defaulted.length ? `has ${defaulted.join(', ')} with a default you may change for this run` : ''].filter(Boolean).join(' and ');
      this.message(`This scenario ${says}: fill in the form, then Run.`, 'info');
      this.form.focus(needed[0]);
      return undefined;
    }
    const { values, missing } = this.form.read();
    if (missing.length) {
      this.message(`Give a value for ${missing.join(', ')} first.`, 'bad');
      this.form.focus(missing[0]);
      return undefined;
    }
    return values;
  }

  /** The scenario's own parameters, then those of its flows the bridge asked for and it does not declare. */
  private formParameters(scenario: string): FormParameter[] {
    const own = declaredParameters(scenario);
    if (this.flowParams.key !== flowKey(scenario)) this.flowParams = { key: flowKey(scenario), params: [] };
    return [...own, ...this.flowParams.params.filter((f) => !own.some((p) => p.name === f.name))];
  }

  /** A run refused for flow parameters without a value: they join the form, to fill in before Run. */
  private askForFlowParameters(scenario: string, asked: FormParameter[]): void {
    const known = this.flowParams.params.filter((p) => !asked.some((a) => a.name === p.name));
    this.flowParams = { key: flowKey(scenario), params: [...known, ...asked] };
    this.form.show(this.formParameters(scenario));
    const names = asked.map((p) => `${p.name} (flow step ${p.flow!.step}, ${p.flow!.file})`);
    this.message(`Not run: ${asked.length === 1 ? 'a flow of this scenario needs' : 'the flows of this scenario need'} ${names.join(', ')}, which the flow step does not pass: fill in the form, then Run (or pass ${asked.length === 1 ? 'it' : 'them'} in the flow step's "parameters").`, 'info');
    this.form.focus(asked[0]!.name);
  }

  private async cancel(): Promise<void> {
    this.parts.cancelButton.disabled = true;
    const answer = await this.client.requestRaw('scenarios.cancel', this.runId ? { run: this.runId } : {}).catch((err: unknown) => ({ status: 'error', message: String(err) }));
    if (isFailureResult(answer)) {
      this.parts.cancelButton.disabled = false;
      this.note(`Cancel: ${answer.message}`);
    } else this.note('Cancelling…');
  }

  private progress(p: Record<string, unknown>): void {
    if (!this.running) return;
    if (p.type === 'started') {
      if (p.device !== this.runDevice) return;
      this.runId = String(p.run_id);
      this.parts.result.dataset.run = this.runId;
      if (typeof p.result_file === 'string') this.seen.resultFile = p.result_file;
      return;
    }
    if (p.run_id !== this.runId) return;
    if (p.type === 'step') {
      const step = p.step as StepView;
      this.seen.steps.push(step);
      this.steps.append(this.stepItem(step));
      // Judged right after their step; a waiting one can take up to a minute, which must not look like a hang.
      if (step.status !== 'skipped') this.checks.append(...(this.pending.get(step.step_id) ?? []).map((a) => this.pendingItem(a)));
    } else if (p.type === 'assertion') {
      const a = p.assertion as AssertionView;
      this.seen.assertions.push(a);
      const item = this.checkItem(a);
      const waiting = [...this.checks.children].find((li) => li instanceof HTMLElement && li.dataset.assertion === a.assertion_id && li.classList.contains('status-pending'));
      if (waiting) waiting.replaceWith(item);
      else this.checks.append(item);
    } else if (p.type === 'finished') {
      this.seen.finished = { status: p.status as RunStatus, summary: String(p.summary ?? '') };
      if (this.detached) this.verdictFromProgress();
    }
  }

  private finished(answer: unknown, scenario: string): void {
    const doc = asResult(answer);
    if (doc) return this.renderResult(doc, answer);
    const flowAsked = flowParametersAsked(answer);
    if (flowAsked?.length && isFailureResult(answer)) return this.askForFlowParameters(scenario, flowAsked);
    if (isFailureResult(answer)) {
      // The bridge's refusal speaks to API callers (devices.lock takeover): lead with the page's own button, as for taps.
      const advice = answer.code === 'PERMISSION_DENIED' ? this.lockAdvice() : undefined;
      return this.message(`Not run: ${advice ? `${advice} ` : ''}${answer.code}: ${answer.message}`, 'bad');
    }
    const envelope = answer as { ok?: boolean; data?: { errors?: { rule?: unknown }[] } };
    if (envelope.ok === false) {
      const errors = envelope.data?.errors ?? [];
      this.parts.showRefusal(answer, scenario);
      const files = errors.some((e) => typeof e?.rule === 'string' && /^(flow-|path-escapes)/.test(e.rule));
      this.message(
        `Not run: the bridge found ${errors.length} error${errors.length === 1 ? '' : 's'} in the scenario; the list is above.${files ? ` A scenario run from the viewer has no folder of its own: the bridge reads its flow files relative to the folder it was started in (where mobilebridge serve runs), so a flow must be there, or run the file with mobilebridge run.` : ''}`,
        'bad',
      );
      return;
    }
    this.message('The bridge answered with something that is not a result document.', 'bad');
  }

  /** `full`: the result document as the bridge answered it (its secrets already masked), offered as a file. */
  private renderResult(doc: ResultView, full?: unknown): void {
    this.runId = doc.run_id;
    if (this.resultUrl) URL.revokeObjectURL(this.resultUrl);
    this.resultUrl = full === undefined ? undefined : URL.createObjectURL(new Blob([`${JSON.stringify(full, null, 2)}\n`], { type: 'application/json' }));
    const download = this.resultUrl ? el('a', { class: 'download-result', href: this.resultUrl, download: `${doc.run_id}.json` }, 'Download result (.json)') : '';
    const verdict = el('p', { class: `verdict ${doc.status === 'passed' ? 'ok' : 'bad'}`, 'data-status': doc.status }, verdictLine(doc));
    const steps = el('ol', { class: 'run-steps', 'aria-label': 'Steps' }, ...(doc.steps_executed ?? []).map((s) => this.stepItem(s)));
    const checks = el('ul', { class: 'run-checks', 'aria-label': 'Assertions' }, ...(doc.assertion_results ?? []).map((a) => this.checkItem(a)));
    this.parts.result.replaceChildren(verdict, doc.summary ? el('p', { class: 'summary' }, doc.summary) : '', el('h4', {}, 'Steps'), steps, doc.assertion_results?.length ? el('h4', {}, 'Assertions') : '', checks, el('p', { class: 'hint' }, `run ${doc.run_id} `, download));
  }

  private stepItem(s: StepView): HTMLLIElement {
    const target = s.resolved_target?.text ? ` → ${s.resolved_target.text}` : '';
    return el(
      'li',
      { class: `status-${s.status}`, 'data-step': s.step_id },
      el('span', { class: 'badge-status' }, s.status),
      ' ',
      el('code', {}, s.step_id),
      ` ${s.action}${target}`,
      s.step_duration_ms !== undefined ? el('span', { class: 'muted' }, ` ${s.step_duration_ms} ms`) : '',
      s.error_message ? el('div', { class: 'error-text' }, `${s.error_code ?? ''} ${s.error_message}`.trim()) : '',
      this.thumbnail(s.screenshot, `Screen after ${s.step_id}`),
      s.sub_steps_executed?.length ? el('ol', { class: 'run-steps' }, ...s.sub_steps_executed.map((x) => this.stepItem(x))) : '',
    );
  }

  private checkItem(a: AssertionView): HTMLLIElement {
    return el(
      'li',
      { class: `status-${a.status}`, 'data-assertion': a.assertion_id },
      el('span', { class: 'badge-status' }, a.status),
      ' ',
      el('code', {}, a.assertion_id),
      ` ${a.type}`,
      a.status === 'passed' ? '' : el('div', { class: 'muted' }, `expected ${shown(a.expected)} · actual ${shown(a.actual)}`),
      a.message ? el('div', { class: a.status === 'failed' || a.status === 'error' ? 'error-text' : 'muted' }, a.message) : '',
      // Only an assertion that looked again (a waiting one) has a screen of its own: the step's shows the screen before the wait.
      a.screenshot && this.shotOfItsOwn(a.screenshot) ? this.thumbnail(a.screenshot, `Screen ${a.assertion_id} was judged on`) : '',
    );
  }

  private shotOfItsOwn(relative: string): boolean {
    return /\+[^\\/]*\.png$/.test(relative);
  }

  private pendingItem(a: PendingAssertion): HTMLLIElement {
    return el('li', { class: 'status-pending', 'data-assertion': a.id }, el('span', { class: 'badge-status' }, a.timeoutMs ? 'waiting' : 'checking'), ' ', el('code', {}, a.id), ` ${a.type}`, el('div', { class: 'muted' }, pendingText(a)));
  }

  private thumbnail(relative: string | null | undefined, alt: string): HTMLElement | '' {
    if (!relative || !this.runId) return '';
    const url = screenshotUrl(this.runId, relative, location.search);
    return el('a', { href: url, target: '_blank', rel: 'noopener', class: 'shot' }, el('img', { src: url, alt, loading: 'lazy' }));
  }

  private message(text: string, kind: 'bad' | 'info'): void {
    this.parts.result.replaceChildren(el('p', { class: `verdict ${kind}` }, text));
  }

  private note(text: string): void {
    this.parts.result.prepend(el('p', { class: 'hint' }, text));
  }
}

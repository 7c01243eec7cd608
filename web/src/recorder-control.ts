import type { BridgeClient } from '../../src/protocol/client.js';
import { isFailureResult, type DeviceActivityParams } from '../../src/protocol/methods.js';
import { el } from './dom.js';
import { recordedFileName, stoppedSummary, type StoppedRecording } from './recording-model.js';

export interface RecorderParts {
  button: HTMLButtonElement;
  status: HTMLElement;
  steps: HTMLElement;
  stepsUnit: HTMLElement;
  startDialog: HTMLDialogElement;
  nameInput: HTMLInputElement;
  startButton: HTMLButtonElement;
  doneDialog: HTMLDialogElement;
  doneBody: HTMLElement;
  downloadButton: HTMLButtonElement;
  validateButton: HTMLButtonElement;
}

interface RecordingInfo {
  device: string;
  name: string;
  steps: number;
}

/**
 * The Record button: records what is done in this viewer (its tool calls: taps, typing, keys,
 * launches) through the bridge's recorder (recording.start / recording.stop), which names elements
 * by their text and turns typing into a password field into a secret parameter. While recording
 * it shows a red dot and the step count; Stop offers the scenario as a file or in the Validate tab.
 */
export class RecorderControl {
  private recording: RecordingInfo | undefined;
  private stopped: StoppedRecording | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: BridgeClient,
    private readonly parts: RecorderParts,
    private readonly device: () => string | undefined,
    private readonly ui: { notice(message: string): void; openInValidator(text: string, file: string): void },
  ) {
    parts.button.addEventListener('click', () => (this.recording ? void this.stop() : this.askName()));
    parts.startButton.addEventListener('click', () => void this.start());
    parts.nameInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void this.start();
      }
    });
    parts.downloadButton.addEventListener('click', () => this.download());
    parts.validateButton.addEventListener('click', () => {
      if (!this.stopped) return;
      parts.doneDialog.close();
      this.ui.openInValidator(JSON.stringify(this.stopped.scenario, null, 2), recordedFileName(this.stopped.scenario));
    });
    for (const dialog of [parts.startDialog, parts.doneDialog]) {
      dialog.querySelector('[data-close]')?.addEventListener('click', () => dialog.close());
    }
    // Each own action may have become a step: ask the recorder for the count (coalesced).
    client.on('device.activity', (a) => {
      const activity = a as DeviceActivityParams;
      if (this.recording && activity.device === this.recording.device && activity.session === client.session) this.scheduleRefresh();
    });
    client.onSession(() => void this.refresh());
  }

  /** The watched device changed: show whether this session records on it (e.g. after a reload). */
  deviceChanged(): void {
    void this.refresh();
  }

  private askName(): void {
    if (!this.device()) return this.ui.notice('Choose a device first: the recording is of what you do on it.');
    this.parts.nameInput.value ||= 'Viewer recording';
    this.parts.startDialog.showModal();
    this.parts.nameInput.select();
  }

  private async start(): Promise<void> {
    const device = this.device();
    const name = this.parts.nameInput.value.trim();
    if (!device || !name) return this.parts.nameInput.focus();
    this.parts.startDialog.close();
    const answer = (await this.client.requestRaw('recording.start', { device, name }).catch((err: unknown) => ({ status: 'error', code: 'INTERNAL', message: String(err) }))) as { recording?: RecordingInfo };
    if (isFailureResult(answer)) return this.ui.notice(`Recording did not start: ${answer.message}`);
    this.show(answer.recording ?? { device, name, steps: 0 });
  }

  private async stop(): Promise<void> {
    const recording = this.recording;
    if (!recording) return;
    this.parts.button.disabled = true;
    const answer = await this.client.requestRaw('recording.stop', { device: recording.device }).catch((err: unknown) => ({ status: 'error', code: 'INTERNAL', message: String(err) }));
    this.parts.button.disabled = false;
    if (isFailureResult(answer)) {
      // "nothing was recorded" also ends the recording; anything else may have left it running.
      await this.refresh();
      return this.ui.notice(`Recording stopped without a scenario: ${answer.message}`);
    }
    this.show(undefined);
    this.stopped = answer as StoppedRecording;
    this.parts.doneBody.replaceChildren(...stoppedSummary(this.stopped).map((line) => el('p', { class: line.kind }, line.text)));
    this.parts.doneDialog.showModal();
  }

  private download(): void {
    if (!this.stopped) return;
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(this.stopped.scenario, null, 2)}\n`], { type: 'application/json' }));
    const a = el('a', { href: url, download: recordedFileName(this.stopped.scenario) });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 100);
  }

  private async refresh(): Promise<void> {
    const device = this.device();
    const answer = (await this.client.requestRaw('recording.status', {}).catch(() => undefined)) as { recordings?: RecordingInfo[] } | undefined;
    if (!answer?.recordings || device !== this.device()) return;
    this.show(answer.recordings.find((r) => r.device === device));
  }

  private show(recording: RecordingInfo | undefined): void {
    this.recording = recording;
    const { button, status, steps } = this.parts;
    button.setAttribute('aria-pressed', String(Boolean(recording)));
    button.textContent = recording ? '■ Stop' : '● Record';
    button.title = recording ? `Stop recording "${recording.name}" and get the scenario` : 'Record what you do on this device as a scenario';
    status.hidden = !recording;
    steps.textContent = String(recording?.steps ?? 0);
    this.parts.stepsUnit.textContent = recording?.steps === 1 ? 'step' : 'steps';
  }
}

import type { BridgeClient } from '../../src/protocol/client.js';
import { isFailureResult } from '../../src/protocol/methods.js';
import type { DeviceActivityParams } from '../../src/protocol/notifications.js';
import { el } from './dom.js';
import { OwnSessions } from './own-sessions.js';
import { RecordingLeftPrompt, type RecordingLeftParts } from './recording-left.js';
import { recordedFileName, stoppedSummary, type OrphanedRecording, type OthersRecording, type StoppedRecording } from './recording-model.js';

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
  /** Shows the stop dialog of the last recording again (hidden until one stopped). */
  lastButton: HTMLButtonElement;
  /** Where a recording another viewer left open on the device is offered. */
  left: RecordingLeftParts;
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
 * A recording some other viewer left open on the device is the user's to continue or discard, never
 * adopted behind their back: the viewer asks the bridge with `adopt: false` throughout.
 */
export class RecorderControl {
  private recording: RecordingInfo | undefined;
  /**
   * The last recording stopped on this page: recording.stop ended it on the bridge, so this is the only
   * copy. It stays reachable (Last recording…, and across a reload) until the next one replaces it.
   */
  private stopped: StoppedRecording | undefined = readStopped();
  /** The user downloaded it or opened it in Validate: closing its dialog loses nothing. */
  private saved = true;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private lookAgainTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly left: RecordingLeftPrompt;

  constructor(
    private readonly client: BridgeClient,
    private readonly parts: RecorderParts,
    private readonly device: () => string | undefined,
    /** openInValidator: false when the user chose to keep the editor's text instead. */
    private readonly ui: { notice(message: string): void; openInValidator(text: string, file: string): boolean },
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
      this.saved = this.ui.openInValidator(JSON.stringify(this.stopped.scenario, null, 2), recordedFileName(this.stopped.scenario)) || this.saved;
    });
    parts.lastButton.hidden = !this.stopped;
    parts.lastButton.addEventListener('click', () => this.showStopped());
    // Esc closes a <dialog> by itself: ask first, as Close does, while the scenario is saved nowhere.
    // (Chromium lets a page hold a dialog open against Esc only once per user action: then it closes unasked.)
    parts.doneDialog.addEventListener('cancel', (e) => {
      if (e.cancelable && !this.mayClose()) e.preventDefault();
    });
    parts.doneDialog.addEventListener('close', () => {
      if (!this.saved) this.ui.notice('The recorded scenario is kept: “Last recording…” beside Record shows it again until you stop another recording.');
    });
    const own = new OwnSessions(client);
    this.left = new RecordingLeftPrompt(parts.left, {
      continue: (device) => void this.adopt(device),
      discard: (device) => void this.discard(device),
      lookAgainIn: (ms) => {
        clearTimeout(this.lookAgainTimer);
        this.lookAgainTimer = setTimeout(() => void this.refresh(), ms);
      },
      mine: (session) => own.has(session),
    });
    parts.startDialog.querySelector('[data-close]')?.addEventListener('click', () => parts.startDialog.close());
    parts.doneDialog.querySelector('[data-close]')?.addEventListener('click', () => this.mayClose() && parts.doneDialog.close());
    // Each own action may have become a step: ask the recorder for the count (coalesced).
    client.on('device.activity', (a) => {
      const activity = a as DeviceActivityParams;
      if (this.recording && activity.device === this.recording.device && activity.session === client.session) this.scheduleRefresh();
    });
    client.onSession(() => void this.refresh());
    // Another session ended without stopping its recording of the watched device: it can be offered now.
    client.on('recording.left', (p) => {
      if ((p as { device?: unknown }).device === this.device()) void this.refresh();
    });
  }

  /** The watched device changed: show whether this session records on it (e.g. after a reload). */
  deviceChanged(): void {
    void this.refresh();
  }

  private askName(): void {
    if (!this.device()) return this.ui.notice('Choose a device first: the recording is of what you do on it.');
    this.parts.nameInput.value ||= 'Viewer recording';
    this.nameProblem(undefined);
    this.parts.startDialog.showModal();
    this.parts.nameInput.select();
  }

  private async start(): Promise<void> {
    const device = this.device();
    const name = this.parts.nameInput.value.trim();
    if (!device) return this.ui.notice('Choose a device first: the recording is of what you do on it.');
    if (!name) {
      this.nameProblem('Give the recording a name: it becomes the scenario’s name and its file name.');
      return this.parts.nameInput.focus();
    }
    this.nameProblem(undefined);
    this.parts.startDialog.close();
    const answer = (await this.client.requestRaw('recording.start', { device, name, adopt: false }).catch((err: unknown) => ({ status: 'error', code: 'INTERNAL', message: String(err) }))) as { recording?: RecordingInfo };
    if (isFailureResult(answer)) {
      this.ui.notice(`Recording did not start: ${answer.message}`);
      // A recording left open on the device refuses the start: offer it again, even if left alone before.
      this.left.reconsider();
      await this.refresh();
      return;
    }
    this.show(answer.recording ?? { device, name, steps: 0 });
  }

  /** Why the name given cannot start a recording, under the name field (undefined: nothing wrong). */
  private nameProblem(text: string | undefined): void {
    const shown = this.parts.startDialog.querySelector<HTMLElement>('#record-name-problem');
    if (!shown) return;
    shown.textContent = text ?? '';
    shown.hidden = text === undefined;
  }

  /** Continue it: the recording another viewer left open becomes this session's. */
  private async adopt(device: string): Promise<void> {
    const answer = (await this.client.requestRaw('recording.adopt', { device }).catch((err: unknown) => ({ status: 'error', code: 'INTERNAL', message: String(err) }))) as { recording?: RecordingInfo };
    if (isFailureResult(answer) || !answer.recording) {
      this.ui.notice(`The recording was not continued: ${isFailureResult(answer) ? answer.message : 'the bridge did not say which'}`);
      await this.refresh();
      return;
    }
    this.left.hide();
    if (device === this.device()) this.show(answer.recording);
    const { name, steps } = answer.recording;
    this.ui.notice(`You continue the recording "${name}" (${steps} step${steps === 1 ? '' : 's'} so far): what you do on ${device} is added to it.`);
  }

  /** Discard it: the recording another viewer left open is deleted, and the user is told what it held. */
  private async discard(device: string): Promise<void> {
    const answer = (await this.client.requestRaw('recording.discard', { device }).catch((err: unknown) => ({ status: 'error', code: 'INTERNAL', message: String(err) }))) as { discarded?: RecordingInfo };
    if (isFailureResult(answer) || !answer.discarded) {
      this.ui.notice(`The recording was not discarded: ${isFailureResult(answer) ? answer.message : 'the bridge did not say which'}`);
      await this.refresh();
      return;
    }
    this.left.hide();
    this.ui.notice(`Discarded the recording "${answer.discarded.name}" (${answer.discarded.steps} step${answer.discarded.steps === 1 ? '' : 's'}) left open on ${device}.`);
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
    this.saved = false;
    keepStopped(this.stopped);
    this.parts.lastButton.hidden = false;
    this.showStopped();
  }

  private showStopped(): void {
    if (!this.stopped) return;
    this.parts.doneBody.replaceChildren(...stoppedSummary(this.stopped).map((line) => el('p', { class: line.kind }, line.text)));
    this.parts.doneDialog.showModal();
  }

  private mayClose(): boolean {
    return this.saved || confirm('Close without saving the recorded scenario? It is neither downloaded nor opened in Validate. “Last recording…” beside Record shows it again.');
  }

  private download(): void {
    if (!this.stopped) return;
    this.saved = true;
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
    const answer = (await this.client.requestRaw('recording.status', { adopt: false }).catch(() => undefined)) as
      | { recordings?: RecordingInfo[]; orphans?: OrphanedRecording[]; others?: OthersRecording[] }
      | undefined;
    if (!answer?.recordings || device !== this.device()) return;
    this.show(answer.recordings.find((r) => r.device === device));
    this.left.update(device, answer.orphans ?? [], answer.others ?? []);
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

const LAST_KEY = 'mobilebridge.viewer.lastRecording';

/** The stopped recording, also for after a reload of this tab (it holds no secret: typed passwords became parameters). */
function keepStopped(stopped: StoppedRecording): void {
  try {
    sessionStorage.setItem(LAST_KEY, JSON.stringify(stopped));
  } catch {
    // Storage off or full: it stays reachable until the page is reloaded.
  }
}

function readStopped(): StoppedRecording | undefined {
  try {
    const kept = JSON.parse(sessionStorage.getItem(LAST_KEY) ?? 'null') as StoppedRecording | null;
    return kept && typeof kept === 'object' && kept.scenario && kept.summary && kept.validation ? kept : undefined;
  } catch {
    return undefined;
  }
}

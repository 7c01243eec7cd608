import { orphanText, waitingText, type OrphanedRecording, type OthersRecording } from './recording-model.js';

export interface RecordingLeftParts {
  root: HTMLElement;
  text: HTMLElement;
  continueButton: HTMLButtonElement;
  discardButton: HTMLButtonElement;
  leaveButton: HTMLButtonElement;
}

export interface RecordingLeftActions {
  continue(device: string): void;
  discard(device: string): void;
  /** Look again in `ms`: a recording kept for a session that may still resume is free after that. */
  lookAgainIn(ms: number): void;
  /** The session is one this page had before (its own recording, interrupted). */
  mine(session: string | undefined): boolean;
}

/** Margin after a resume grace ends: the bridge ends the session (and frees its recording) on its own timer. */
const AFTER_GRACE_MS = 500;

/**
 * A recording another viewer left open on the watched device (its tab closed while recording) is
 * never taken over behind the user's back: this says whose it is and offers Continue it, Discard
 * it, or Leave it. While the session that left it may still resume, it says until when, and looks
 * again then. What the user left alone is not offered again until they ask to record.
 */
export class RecordingLeftPrompt {
  /** The orphan offered now (Continue and Discard act on it). */
  private shown: OrphanedRecording | undefined;
  /** What the message shown now is about, so Leave it keeps it from coming back. */
  private about: string | undefined;
  private readonly leftAlone = new Set<string>();

  constructor(
    private readonly parts: RecordingLeftParts,
    private readonly actions: RecordingLeftActions,
  ) {
    parts.continueButton.addEventListener('click', () => this.shown && actions.continue(this.shown.device));
    parts.discardButton.addEventListener('click', () => this.shown && actions.discard(this.shown.device));
    parts.leaveButton.addEventListener('click', () => {
      if (this.about) this.leftAlone.add(this.about);
      this.hide();
    });
  }

  /** What recording.status (adopt: false) says about `device`, the device watched now (undefined: none). */
  update(device: string | undefined, orphans: readonly OrphanedRecording[], others: readonly OthersRecording[]): void {
    const orphan = orphans.find((o) => o.device === device && !this.leftAlone.has(orphanKey(o)));
    if (orphan) return this.offer(orphan);
    const waiting = others.find((o) => o.device === device && !o.connected && o.kept_for_ms !== undefined);
    if (!waiting) return this.hide();
    this.actions.lookAgainIn(waiting.kept_for_ms! + AFTER_GRACE_MS);
    if (this.leftAlone.has(waitingKey(waiting))) return this.hide();
    this.tell(waitingKey(waiting), waitingText(waiting, new Date(Date.now() + waiting.kept_for_ms!), this.actions.mine(waiting.by.session)));
  }

  /** The user asked to record: what they left alone is offered again if it is in the way. */
  reconsider(): void {
    this.leftAlone.clear();
  }

  hide(): void {
    this.shown = undefined;
    this.about = undefined;
    this.parts.root.hidden = true;
  }

  private offer(orphan: OrphanedRecording): void {
    this.shown = orphan;
    this.about = orphanKey(orphan);
    this.parts.text.textContent = orphanText(orphan, this.actions.mine(orphan.started_by?.session));
    this.parts.continueButton.hidden = false;
    this.parts.discardButton.hidden = false;
    this.parts.discardButton.textContent = `Discard it (${orphan.steps} step${orphan.steps === 1 ? '' : 's'})`;
    this.parts.root.hidden = false;
  }

  private tell(about: string, text: string): void {
    this.shown = undefined;
    this.about = about;
    this.parts.text.textContent = text;
    this.parts.continueButton.hidden = true;
    this.parts.discardButton.hidden = true;
    this.parts.root.hidden = false;
  }
}

function orphanKey(o: OrphanedRecording): string {
  return `left\n${o.device}\n${o.name}\n${o.started_at}`;
}

function waitingKey(o: OthersRecording): string {
  return `kept\n${o.device}\n${o.by.session}`;
}

/** Notifications of the bridge protocol (server → client): their names and parameters. */
import type { DeviceInfo, UiElement } from '../engine/types.js';
import type { FrameFormat, StreamSource } from './screen-formats.js';

/** Who acted or holds a lock: the public session id and the client name given in `session.hello`. */
export interface Participant {
  session: string;
  client?: string;
}

export interface DevicesChangedParams {
  added: DeviceInfo[];
  removed: string[];
  /** Devices that stopped being usable: `offline`/`unauthorized` (still listed, in `added` too) or `removed`, and why. */
  gone?: GoneDevice[];
  /**
   * devices.list's `notes` as they are now ([] when none): a change may carry only these, when a
   * source without devices stops or starts answering. Absent from older bridges.
   */
  notes?: string[];
  /** devices.list's `bridges` as they are now. */
  bridges?: string[];
}

export interface GoneDevice {
  id: string;
  state: 'offline' | 'unauthorized' | 'not_responding' | 'removed';
  reason: string;
}

export interface ElementsChangedParams {
  subscription: string;
  device: string;
  /** Per device, +1 for every change; a gap means a diff was missed (resubscribe or list elements). */
  seq: number;
  /** True on the first message of a subscription: `added` is the whole screen, replace what you hold. */
  reset?: boolean;
  added: UiElement[];
  removed: string[];
  changed: UiElement[];
  /**
   * The listing's note (mobile_list_elements_on_screen's `note`: an app error dialog covering the
   * app, a tree cut at the device's depth limit). On a reset when there is one; on a diff only
   * when it changed, `null` when it went away. Absent on a diff: the note stays as it was.
   */
  note?: string | null;
}

export interface ActivityOutcome {
  status: 'success' | 'error';
  code?: string;
  message?: string;
}

/** The element an action landed on, as the device's latest element listing had it. */
export interface ActivityElement {
  id: string;
  type: string;
  /** Visible text, else accessibility label, else hint; a text field (password or not) by its label, hint or resource id, never its text. */
  name?: string;
}

export interface DeviceActivityParams extends Participant {
  device: string;
  /** Per device, increasing. An entry that continues the previous one (keys typed in quick succession) repeats its id: replace it. */
  id: number;
  tool?: string;
  verb?: string;
  /** As called, except typed text that went (or, a password field on screen, may have gone: after ENTER or a newline in it) into a password field, which is "•••". */
  parameters: Record<string, unknown>;
  outcome: ActivityOutcome;
  duration_ms: number;
  at: string;
  /** One sentence for people: "tapped the “Sign in” button", "typed 8 characters into the “Password” field". */
  summary: string;
  element?: ActivityElement;
  /** Set when typed text was withheld (a password field, or a field the bridge could not identify); no `characters` for a scenario's secret parameter. */
  masked?: { characters?: number; reason: string };
  /** How many calls this entry stands for (more than 1 after merging). */
  count?: number;
}

/**
 * What a lock is for, when it is more than a person or client holding the device: a scenario run
 * (`scenarios.run`; its scenario's id and name when the bridge knows them) or a lease (`devices.lease`,
 * a CI job's). A takeover cancels the run, or takes the device from under the job.
 */
export type LockPurpose = { kind: 'run'; scenario_id?: string; name?: string } | { kind: 'lease' };

export interface DeviceLockParams {
  device: string;
  /** The new holder, or null when the device was unlocked. */
  holder: Participant | null;
  /**
   * With a holder: what it holds the device for (absent: a plain `devices.lock`). Also sent, with the
   * same holder, when a run starts or ends under a lock already held.
   */
  purpose?: LockPurpose;
  /** Set when the lock was taken over from another session. */
  previous?: Participant;
  /** When the new holder took it (with `holder`). */
  since?: string;
  /** Why it was released, when it was not an explicit unlock (the holder disconnected, its session ended). */
  reason?: string;
}

/** A screen subscription's source changed mid-stream: video fell back to screenshots, or came back. */
export interface StreamChangedParams {
  subscription: string;
  device: string;
  format: FrameFormat;
  source: StreamSource;
  fallback_reason?: string;
}

export interface SubscriptionEndedParams {
  subscription: string;
  device: string;
  reason: string;
}

/** The device went away; the subscription stays and resumes by itself when it is back (issue 16). */
export interface SubscriptionPausedParams {
  subscription: string;
  device: string;
  reason: string;
}

export interface SubscriptionResumedParams {
  subscription: string;
  device: string;
}

/** Shape owned by the runner; the bridge forwards it unchanged. */
export type ScenarioProgressParams = Record<string, unknown>;

export interface NotificationParams {
  'devices.changed': DevicesChangedParams;
  'elements.changed': ElementsChangedParams;
  'device.activity': DeviceActivityParams;
  'device.lock': DeviceLockParams;
  'subscription.ended': SubscriptionEndedParams;
  'stream.changed': StreamChangedParams;
  'subscription.paused': SubscriptionPausedParams;
  'subscription.resumed': SubscriptionResumedParams;
  'scenario.progress': ScenarioProgressParams;
}
export type NotificationName = keyof NotificationParams;

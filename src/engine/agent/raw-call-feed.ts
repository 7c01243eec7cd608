import type { CallEvent, Engine } from '../engine.js';
import { isToolFailure } from '../errors.js';
import type { UiElement } from '../types.js';
import type { Recorder } from '../verbs/recording.js';
import { POINT_TOOLS, translateRawCall } from '../verbs/recording-tools.js';

/**
 * How an agent session's raw tool calls (and everyone's, on a recorded device) reach its
 * recordings: listings count as looking, actions are recorded semantically, another session's
 * actions are counted against the recording. Apart from AgentSession, which runs verbs and
 * assertions itself: this side only listens to the engine's call feed, and keeps what that needs,
 * the agent's last listing of each device.
 */

/** `partOf` of the listing taken before a recorded point tap (listBeforePointTool). */
const LOOK_BEFORE_TAP = 'recording: look before a point tap';

export class RawCallFeed {
  /**
   * The agent's own element listing per device while it still shows the screen: what a
   * coordinate tap refers to. Any action on the device drops it (the bridge's activity feed
   * holds to the same rule), so a tap is never named from a screen it did not hit.
   */
  private readonly listings = new Map<string, UiElement[]>();

  /** `busy`: the session's own verb or assertion is running on the device (its calls are recorded as the verb). */
  constructor(
    private readonly engine: Engine,
    private readonly origin: string,
    private readonly recorders: ReadonlyMap<string, Recorder>,
    private readonly busy: (device: string) => boolean,
    private readonly persist: (device: string) => void,
  ) {}

  /**
   * Before a raw point tool while recording: a listing of the screen the tap will hit, queued
   * ahead of it on the device, so the tap is recorded as the element there. Without it an agent
   * working mobile-mcp style (list, tap, type, tap, type) had its second tap skipped, the listing
   * being stale after the typing, and the password typed next was recorded into the first field.
   * `evenIfListed`: the caller's own listing may trail the screen (a viewer is shown the bridge's).
   * Not counted as the agent looking again (which makes replay wait for the target).
   */
  listBeforePointTool(tool: string, device: unknown, evenIfListed = false): void {
    if (typeof device !== 'string' || !Object.hasOwn(POINT_TOOLS, tool) || !this.recorders.has(device)) return;
    if (!evenIfListed && this.listings.has(device)) return;
    void this.engine.call('mobile_list_elements_on_screen', { device }, { origin: this.origin, partOf: LOOK_BEFORE_TAP }).catch(() => undefined);
  }

  /** Raw tool calls of this agent: listings count as looking, actions are recorded semantically. */
  onCall(e: CallEvent): void {
    // The listing is taken before the action is translated: it is what the action itself hit.
    const listing = this.listings.get(e.device);
    // Whoever acted (this agent's verbs, another participant, a failed call that got halfway), the screen may differ now.
    if (e.mutates) this.listings.delete(e.device);
    const listed = e.tool === 'mobile_list_elements_on_screen' && !isToolFailure(e.result) ? (e.result as { elements: UiElement[] }).elements : undefined;
    // Any listing of the device says which field has focus now (a viewer's own keys, like Tab, move it unrecorded);
    // saved when it changed, so typing after a crash into a password field focused this way stays a secret.
    if (listed && this.recorders.get(e.device)?.noteFields(listed)) this.persist(e.device);
    if (e.origin !== this.origin) {
      // A streamed drag is one action when the finger lifts.
      const recorder = e.mutates && e.ok && e.origin && !(e.tool === 'input.touch' && e.parameters.action !== 'up') ? this.recorders.get(e.device) : undefined;
      if (recorder) {
        recorder.noteOtherSession(e.origin!);
        this.persist(e.device);
      }
      return;
    }
    if (listed) this.recorders.get(e.device)?.noteScreen(listed);
    if (this.busy(e.device)) return;
    if (listed) this.listings.set(e.device, listed);
    const recorder = this.recorders.get(e.device);
    if (!recorder) return;
    if (!e.mutates) {
      if ((e.tool === 'mobile_list_elements_on_screen' || e.tool === 'mobile_take_screenshot') && e.partOf !== LOOK_BEFORE_TAP) recorder.notePoll();
      return;
    }
    const t = translateRawCall(e, listing);
    if (!t) return;
    // A raw call that was not recorded (a Tab key, a tap on nothing nameable) may have moved the focus.
    if ('skipped' in t) recorder.noteSkipped(t.skipped, { focusMayMove: true });
    else if ('erase' in t) {
      if (!recorder.eraseTyped()) recorder.noteSkipped('Backspace outside the text just typed: a scenario cannot delete text (a type step with clear_first empties a field)');
    } else recorder.noteVerb(t.step, t.outcome);
    this.persist(e.device);
  }
}

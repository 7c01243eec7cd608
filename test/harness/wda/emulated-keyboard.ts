import type { CallContext } from '../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { WdaFailure } from './wda-failure.js';
import type { WdaFaults } from './wda-faults.js';
import type { WdaSessions } from './wda-sessions.js';
import { allNodes, findNode, type WdaJsonNode } from './wda-tree.js';

/*
 * The keyboard and the focused field as WDA's routes reach them: the keyboard lookup of POST /elements, GET
 * /element/active, POST /element/:uuid/clear, the typing of POST /wda/keys and POST /wda/keyboard/dismiss.
 * Apart from emulated-wda.ts, which routes to it after its own checks (session, lock screen), because the
 * element uuids and the keyboard's faults are this part's alone.
 */

const ctx = (): CallContext => ({ signal: new AbortController().signal });

/** What the keyboard routes need of the WDA around them: XCTest's snapshot of the app in front. */
export interface AppSnapshot {
  /** The fault `snapshotFailures`: throws when XCTest gets no snapshot of the app in front. */
  snapshotApp(): void;
  /** What /source serves: the virtual phone's hierarchy as WDA's JSON tree, with the faults applied. */
  sourceTree(): WdaJsonNode;
}

export class EmulatedKeyboard {
  /** Labels of the keys /wda/keyboard/dismiss tapped, in order. */
  readonly keysTappedToDismiss: string[] = [];

  constructor(
    private readonly device: VirtualDevice,
    private readonly scale: number,
    private readonly faults: WdaFaults,
    private readonly sessions: WdaSessions,
    private readonly snapshot: AppSnapshot,
  ) {}

  /** POST /elements. */
  find(body: Record<string, unknown>): unknown[] {
    const d = this.device;
    // FBFindElementCommands.m: a list of {ELEMENT, element-6066-…} references; only the keyboard lookup is emulated.
    if (body.using !== 'class name' || body.value !== 'XCUIElementTypeKeyboard') throw new WdaFailure('invalid argument', 400, 'only class name XCUIElementTypeKeyboard lookups are emulated');
    this.snapshot.snapshotApp();
    if (!d.keyboardVisible || this.faults.hardwareKeyboard) return [];
    if (this.faults.obstructingAlerts && this.keyboardUnderAlert()) {
      // FBExceptionHandler.m before 76447471: unexpectedAlertOpenErrorWithMessage:nil, i.e. FBCommandStatus.m's default message.
      throw new WdaFailure('unexpected alert open', 500, 'A modal dialog was open, blocking this operation');
    }
    const id = '00000000-0000-0000-2A0E-000000000001';
    return [{ ELEMENT: id, 'element-6066-11e4-a52e-4f735466cecf': id }];
  }

  /** POST /wda/keys, once WDA took `value` and the lock screen did not. */
  async type(value: unknown[]): Promise<null> {
    const d = this.device;
    // FBElementCommands.m handleKeys (W3C builds, 2019 on): no keyboard wait, FBTypeText synthesizes the keys into
    // whatever is in front; only a synthesis failure is "invalid element state", with the NSError's description.
    if (this.faults.typingFails) throw new WdaFailure('invalid element state', 400, this.faults.typingFails);
    if (!d.keyboardVisible) return null;
    // XCUIKeyboardKeyDelete ("\b") deletes one character, as typeText does with it on a device.
    for (const run of value.join('').match(/\u0008|[^\u0008]+/g) ?? []) {
      if (run === '\u0008') await d.deleteBackward(ctx());
      else await d.typeText(run, ctx());
    }
    return null;
  }

  /** GET /element/active. */
  active(): { ELEMENT: string; 'element-6066-11e4-a52e-4f735466cecf': string } {
    const d = this.device;
    // FBFindElementCommands.m handleGetActiveElement: the element with keyboard focus, else FBNoSuchElementErrorResponseForRequest
    // (a GET has no arguments, so using and value print as "(null)"). Element uuids live in the session's FBElementCache.
    const focused = d.focusedField;
    if (!focused || !d.keyboardVisible) throw new WdaFailure('no such element', 404, "unable to find an element using '(null)', value '(null)'");
    const uuid = `${ACTIVE_PREFIX}${this.sessions.id}-${focused}`;
    return { ELEMENT: uuid, 'element-6066-11e4-a52e-4f735466cecf': uuid };
  }

  /** FBAlert.m isElementObstructedByAlertView: an alert (or action sheet) shows and the keyboard is not part of it. */
  private keyboardUnderAlert(): boolean {
    const alert = findNode(this.snapshot.sourceTree(), (n) => n.type === 'Alert' || n.type === 'Sheet');
    return Boolean(alert && !findNode(alert, (n) => n.type === 'Keyboard'));
  }

  /**
   * XCUIApplication+FBHelpers.m fb_dismissKeyboardWithKeyNames: done at once when no keyboard shows; else
   * every key (Key or Button) of the keyboard whose identifier or label is one of keyNames is tapped, in
   * the keyboard's order, until the keyboard is gone, whatever the key does (a return key in a text view
   * types a newline, Go or Send submit). It then waits for the keyboard to go and answers "invalid element
   * state" (FBCustomCommands.m). The iPad fallback (tapping the keyboard's last key) is not emulated: the
   * virtual phone is an iPhone.
   */
  async dismissKeyboard(keyNames: unknown): Promise<null> {
    const keyboard = findNode(this.snapshot.sourceTree(), (n) => n.type === 'Keyboard');
    if (!keyboard) return null;
    const names = new Set(Array.isArray(keyNames) ? keyNames.map(String) : []);
    const keys = names.size ? allNodes(keyboard).filter((n) => (n.type === 'Key' || n.type === 'Button') && [n.name, n.label].some((x) => x !== null && names.has(x))) : [];
    for (const key of keys) {
      const { x, y, width, height } = key.rect;
      await this.device.tap((x + width / 2) * this.scale, (y + height / 2) * this.scale, ctx());
      this.keysTappedToDismiss.push(key.label ?? key.name ?? '');
      if (!findNode(this.snapshot.sourceTree(), (n) => n.type === 'Keyboard')) return null;
    }
    throw new WdaFailure('invalid element state', 400, 'Error Domain=com.facebook.WebDriverAgent Code=1 "Did not know how to dismiss the keyboard. Try to dismiss it in the way supported by your application under test." UserInfo={NSLocalizedDescription=Did not know how to dismiss the keyboard. Try to dismiss it in the way supported by your application under test.}');
  }

  /**
   * FBElementCommands.m handleClear: FBElementCache.m elementForUUID knows only the uuids this session handed
   * out (another session's, or one from before a restart, is "stale element reference"), and an element no
   * longer on screen fails its snapshot the same way (XCUIElement+FBUtilities.m); clearing goes through the keyboard.
   */
  async clearElement(uuid: string): Promise<null> {
    const focused = this.device.focusedField;
    if (!uuid.startsWith(`${ACTIVE_PREFIX}${this.sessions.id}-`)) {
      throw new WdaFailure('stale element reference', 404, `The element identified by "${uuid}" is either not present or it has expired from the internal cache. Try to find it again`);
    }
    if (uuid !== `${ACTIVE_PREFIX}${this.sessions.id}-${focused ?? ''}`) throw new WdaFailure('stale element reference', 404, `The previously found element "${uuid}" is not present in the current view anymore. Make sure the application UI has the expected state`);
    await this.device.clearText(ctx());
    return null;
  }
}

/** Element uuids this emulation hands out for the focused field. */
const ACTIVE_PREFIX = 'ACTIVE-';

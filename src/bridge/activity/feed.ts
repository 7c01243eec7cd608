import type { CallEvent } from '../../engine/engine.js';
import { isToolFailure } from '../../engine/errors.js';
import type { UiElement } from '../../engine/types.js';
import type { ActivityElement, ActivityOutcome, DeviceActivityParams, Participant } from '../../protocol/index.js';
import { elementAt } from '../../engine/hit-test.js';
import { isTextField } from '../../engine/readable-name.js';
import { activityElement, MASK, summarize } from './describe.js';
import { ScreenMemory } from './screen-memory.js';
import { graphemeCount } from '../../engine/text-length.js';

/** An action to show every participant of a device (`device.activity`). */
export interface ActivityEntry {
  tool?: string;
  verb?: string;
  parameters: Record<string, unknown>;
  outcome: ActivityOutcome;
  durationMs: number;
  /** The element a verb resolved its target to (its `password` decides masking). */
  resolved?: { id: string; type: string; text: string; label: string | null; password?: boolean };
}

export interface FeedHooks {
  /** A fresh element listing (read-only, in the device's queue), for when nothing was ever listed. */
  list(device: string): Promise<UiElement[]>;
  broadcast(device: string, activity: DeviceActivityParams): void;
  log(line: string): void;
}

/** Entries a late joiner gets (`activity.recent`). */
export const RECENT_ENTRIES = 50;
/** Keys typed closer together than this by one session into one field make one entry. */
export const MERGE_WITHIN_MS = 2000;
const MAX_PARAMETER_CHARS = 500;
const MAX_DEVICES = 500;
const POINT_TOOLS = new Set(['mobile_click_on_screen_at_coordinates', 'mobile_double_tap_on_screen', 'mobile_long_press_on_screen_at_coordinates']);
/** Tools whose x, y name the element acted on; a pinch focuses no field, so it is not a POINT_TOOL. */
const NAMED_AT_POINT = new Set([...POINT_TOOLS, 'mobile_pinch_on_screen']);
const TYPE_TOOL = 'mobile_type_keys';

function movesFocus(tool: string, p: Record<string, unknown>): boolean {
  if (tool === 'input.key') return p.key === 'TAB' || p.key === 'UP' || p.key === 'DOWN' || p.key === 'ENTER';
  // Typing that ends with ENTER (submit, a newline) may leave the focus elsewhere too.
  if (tool === TYPE_TOOL) return p.submit === true || (typeof p.text === 'string' && p.text.includes('\n'));
  return tool === 'mobile_press_button' && p.button === 'ENTER';
}

/**
 * Text that goes on after ENTER (a newline inside it): the sign-in form's ENTER moves from Email to
 * Password, so what follows may go into a password field other than the one typing started in.
 */
function goesOnAfterEnter(text: string): boolean {
  const at = text.indexOf('\n');
  return at >= 0 && at < text.length - 1;
}

const AFTER_ENTER = 'the text goes on after ENTER, which may have moved the focus to the password field on screen';

export function outcomeOf(result: unknown): ActivityOutcome {
  if (isToolFailure(result)) return { status: 'error', code: result.code, message: result.message };
  const message = (result as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? { status: 'success', message } : { status: 'success' };
}

/** Parameters as shown to other participants: long strings cut so activity stays small. */
function shorten(parameters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parameters)) {
    out[k] = typeof v === 'string' && v.length > MAX_PARAMETER_CHARS ? `${v.slice(0, MAX_PARAMETER_CHARS)}… (${v.length} characters)` : v;
  }
  return out;
}

interface Named {
  element?: ActivityElement;
  masked?: DeviceActivityParams['masked'];
}

interface Ring {
  entries: DeviceActivityParams[];
  /** When the newest entry's call finished (ms), for merging typing. */
  lastEnded: number;
}

/** A call on a device id nobody knows (a typo): nothing happened on any device, so nothing is recorded. */
function unknownDevice(outcome: ActivityOutcome): boolean {
  return outcome.status === 'error' && outcome.code === 'DEVICE_NOT_FOUND';
}

/**
 * The pair-debugging feed of every device: names the element each action landed on, withholds
 * what is typed into password fields, merges keys typed in quick succession into one entry, keeps
 * the last 50 entries per device for late joiners, and hands each entry to the hub to broadcast.
 */
export class ActivityFeed {
  readonly memory = new ScreenMemory();
  private readonly rings = new Map<string, Ring>();
  /**
   * The next entry id per device, kept when its ring is let go: a client merges entries by id, so
   * a device's ids never start over. Only devices that had a real call get one.
   */
  private readonly nextIds = new Map<string, number>();
  /** Per device: entries waiting for a listing, so later ones are published after them, in order. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly hooks: FeedHooks) {}

  /** Engine call listener: keeps the screen memory and publishes every mutating call that is not part of a verb. */
  onCall(e: CallEvent, actor: () => Participant): void {
    if (e.tool === 'mobile_list_elements_on_screen' && e.ok) this.memory.saw(e.device, (e.result as { elements: UiElement[] }).elements);
    if (!e.mutates) return;
    const outcome = outcomeOf(e.result);
    // Typos must not push real devices' history out of the bounded set of rings.
    if (unknownDevice(outcome) && !this.nextIds.has(e.device)) return;
    const screen = this.memory.beforeAction(e.device);
    const p = e.parameters;
    const hit = NAMED_AT_POINT.has(e.tool) && screen && typeof p.x === 'number' && typeof p.y === 'number' ? elementAt(screen, { x: p.x, y: p.y }) : undefined;
    // Where typing goes is the field focused before the call (submit may leave the screen).
    const typingInto = e.tool === TYPE_TOOL ? this.memory.typingTarget(e.device) : undefined;
    if ((POINT_TOOLS.has(e.tool) || e.tool === 'input.touch') && e.ok) this.memory.touched(e.device, hit);
    // Tab, arrows and ENTER (an IME "next") may move the focus to another field, a password field among them.
    else if (movesFocus(e.tool, p)) this.memory.touched(e.device, undefined);
    this.memory.acted(e.device);
    if (e.partOf) return;
    const entry: ActivityEntry = { tool: e.tool, parameters: p, outcome, durationMs: e.durationMs };
    const who = actor();
    if (e.tool !== TYPE_TOOL || typeof p.text !== 'string' || p.text === '') {
      this.inOrder(e.device, () => this.record(e.device, who, entry, hit ? { element: activityElement(hit) } : {}));
      return;
    }
    const text = p.text;
    this.inOrder(e.device, async () => this.record(e.device, who, entry, await this.typing(e.device, text, typingInto)));
  }

  /** An action reported by a method (a verb run live): same naming and masking as tool calls. */
  publish(device: string, actor: Participant, entry: ActivityEntry): void {
    if (unknownDevice(entry.outcome) && !this.nextIds.has(device)) return;
    const value = entry.parameters.value;
    if (entry.verb === 'type' && typeof value === 'string' && value !== '') {
      const field = entry.resolved;
      const known = field ? { known: true as const, field: undefined, passwordOnScreen: false } : this.memory.typingTarget(device);
      this.inOrder(device, async () => {
        if (field) {
          const element = this.elementOf(device, field);
          const screen = this.memory.typingTarget(device);
          const named: Named = field.password
            ? { element, masked: masked(value, 'typed into a password field') }
            : goesOnAfterEnter(value) && (!screen.known || screen.passwordOnScreen)
              ? { element, masked: masked(value, AFTER_ENTER) }
              : { element };
          this.record(device, actor, maskValue(entry, named, 'value'), named);
        } else this.record(device, actor, entry, await this.typing(device, value, known));
      });
      return;
    }
    const r = entry.resolved;
    this.inOrder(device, () => this.record(device, actor, entry, r ? { element: this.elementOf(device, r) } : {}));
  }

  /**
   * The element a verb resolved, named as a listed one is (activityElement): a text field by its
   * label or hint from the latest listing, never by its text (what was typed, a secret among it).
   */
  private elementOf(device: string, r: NonNullable<ActivityEntry['resolved']>): ActivityElement {
    if (isTextField(r)) {
      const listed = this.memory.element(device, r.id);
      if (listed && isTextField(listed)) return { ...activityElement(listed), type: r.type };
      const label = r.label?.trim();
      return { id: r.id, type: r.type, ...(label ? { name: label } : {}) };
    }
    const name = (r.text || r.label || '').trim();
    return { id: r.id, type: r.type, ...(name ? { name } : {}) };
  }

  /** A real call was recorded on the device at some point (its history is kept when it goes away). */
  knows(device: string): boolean {
    return this.nextIds.has(device);
  }

  /** The last entries of a device, oldest first. */
  recent(device: string): DeviceActivityParams[] {
    return [...(this.rings.get(device)?.entries ?? [])];
  }

  forget(device: string): void {
    this.rings.delete(device);
    this.memory.forget(device);
  }

  /** Which field the text went into and whether to withhold it: when the bridge cannot tell, it withholds. */
  private async typing(device: string, text: string, known: ReturnType<ScreenMemory['typingTarget']> | undefined): Promise<Named> {
    let target = known ?? this.memory.typingTarget(device);
    if (!target.known) {
      try {
        this.memory.saw(device, await this.hooks.list(device));
      } catch (err) {
        this.hooks.log(`activity: could not list the elements of ${device} to name the field typed into: ${(err as Error).message}`);
      }
      target = this.memory.typingTarget(device);
    }
    if (!target.known) return { masked: masked(text, 'the bridge could not read the screen to tell whether the field is a password field') };
    if (target.field) {
      const element = activityElement(target.field);
      if (target.field.password) return { element, masked: masked(text, 'typed into a password field') };
      return goesOnAfterEnter(text) && target.passwordOnScreen ? { element, masked: masked(text, AFTER_ENTER) } : { element };
    }
    if (target.passwordOnScreen) return { masked: masked(text, 'a password field is on screen and the bridge could not tell which field has the focus') };
    return {};
  }

  private inOrder(device: string, work: () => void | Promise<void>): void {
    const before = this.pending.get(device);
    if (!before) {
      const r = work();
      if (r) this.track(device, r);
      return;
    }
    this.track(device, before.then(work));
  }

  private track(device: string, p: Promise<void>): void {
    const chained = p.catch((err: unknown) => this.hooks.log(`activity of ${device}: ${(err as Error).stack ?? String(err)}`)).finally(() => {
      if (this.pending.get(device) === chained) this.pending.delete(device);
    });
    this.pending.set(device, chained);
  }

  private record(device: string, actor: Participant, entry: ActivityEntry, named: Named): void {
    const shown = named.masked ? maskValue(entry, named, entry.verb ? 'value' : 'text') : entry;
    const now = Date.now();
    const ring = this.ring(device);
    const base: Omit<DeviceActivityParams, 'summary' | 'id'> = {
      ...actor,
      device,
      ...(shown.tool ? { tool: shown.tool } : {}),
      ...(shown.verb ? { verb: shown.verb } : {}),
      parameters: shorten(shown.parameters),
      outcome: shown.outcome,
      duration_ms: Math.round(shown.durationMs * 10) / 10,
      at: new Date(now).toISOString(),
      ...(named.element ? { element: named.element } : {}),
      ...(named.masked ? { masked: named.masked } : {}),
    };
    const last = ring.entries.at(-1);
    const merged = last && now - shown.durationMs - ring.lastEnded <= MERGE_WITHIN_MS ? mergeTyping(last, base) : undefined;
    ring.lastEnded = now;
    let params: DeviceActivityParams;
    if (merged) {
      params = { ...merged, summary: summarize(merged) };
      ring.entries[ring.entries.length - 1] = params;
    } else {
      const id = this.nextIds.get(device) ?? 1;
      this.nextIds.set(device, id + 1);
      params = { ...base, id, summary: summarize(base) };
      ring.entries.push(params);
      if (ring.entries.length > RECENT_ENTRIES) ring.entries.splice(0, ring.entries.length - RECENT_ENTRIES);
    }
    this.hooks.broadcast(device, params);
  }

  private ring(device: string): Ring {
    let ring = this.rings.get(device);
    if (!ring) {
      // The ring acted on least recently goes (each record moves its ring to the end); its ids go on.
      if (this.rings.size >= MAX_DEVICES) this.rings.delete(this.rings.keys().next().value!);
      ring = { entries: [], lastEnded: 0 };
    } else this.rings.delete(device);
    this.rings.set(device, ring);
    return ring;
  }
}

function masked(text: string, reason: string): NonNullable<DeviceActivityParams['masked']> {
  // Text the runner already redacted (a secret parameter) has no length to tell.
  return text === MASK ? { reason: 'a secret parameter' } : { characters: graphemeCount(text), reason };
}

function maskValue(entry: ActivityEntry, named: Named, key: 'text' | 'value'): ActivityEntry {
  if (!named.masked) return entry;
  return { ...entry, parameters: { ...entry.parameters, [key]: MASK } };
}

/**
 * Keys typed in quick succession by one session into one field make one entry: a later
 * mobile_type_keys, or an ENTER press, continues the previous typing entry (same id).
 */
function mergeTyping(last: DeviceActivityParams, next: Omit<DeviceActivityParams, 'summary' | 'id'>): Omit<DeviceActivityParams, 'summary'> | undefined {
  if (last.tool !== TYPE_TOOL || last.session !== next.session || last.outcome.status !== 'success' || next.outcome.status !== 'success') return undefined;
  if (last.parameters.submit) return undefined;
  const enter = next.tool === 'mobile_press_button' && next.parameters.button === 'ENTER';
  if (!enter) {
    if (next.tool !== TYPE_TOOL || next.parameters.clear_first || typeof next.parameters.text !== 'string') return undefined;
    if (last.element?.id !== next.element?.id || Boolean(last.masked) !== Boolean(next.masked)) return undefined;
  }
  const { summary: _summary, ...kept } = last;
  const text = enter ? last.parameters.text : last.masked ? MASK : `${String(last.parameters.text ?? '')}${String(next.parameters.text)}`;
  const characters = !enter && last.masked?.characters !== undefined && next.masked?.characters !== undefined ? last.masked.characters + next.masked.characters : last.masked?.characters;
  return {
    ...kept,
    parameters: { ...last.parameters, text, ...(enter || next.parameters.submit ? { submit: true } : {}) },
    duration_ms: Math.round((last.duration_ms + next.duration_ms) * 10) / 10,
    at: next.at,
    count: (last.count ?? 1) + 1,
    ...(last.masked ? { masked: { ...(characters !== undefined ? { characters } : {}), reason: last.masked.reason } } : {}),
  };
}

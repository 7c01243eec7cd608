import type { CallContext, DeviceHandle } from '../engine/driver.js';
import type { CallEvent, Engine } from '../engine/engine.js';
import { isToolFailure, toFailure, type ToolFailure } from '../engine/errors.js';
import type { UiElement } from '../engine/types.js';
import {
  SCREEN_DEFAULTS,
  type ActivityOutcome,
  type DeviceActivityParams,
  type EffectiveScreenOptions,
  type NotificationName,
  type NotificationParams,
  type Participant,
  type ValidParamsOf,
} from '../protocol/index.js';
import { ElementWatcher } from './elements.js';
import { FramePipeline, type FrameStats, type RawScreen, type ScreenImage } from './frames.js';
import type { Session, SessionStore } from './sessions.js';
import { Subscription } from './subscription.js';

export interface HubOptions {
  elementsPollMs: number;
  captureTimeoutMs: number;
  log(line: string): void;
}

interface DeviceState {
  subs: Set<Subscription>;
  frames?: FramePipeline;
  elements?: ElementWatcher;
}

/** An action to show every participant of a device (`device.activity`). */
export interface ActivityEntry {
  tool?: string;
  verb?: string;
  parameters: Record<string, unknown>;
  outcome: ActivityOutcome;
  durationMs: number;
}

const MAX_PARAMETER_CHARS = 500;

/** Raw pixels when the driver has them (no PNG encode on the device side and decode here), else the PNG. */
async function captureScreen(device: DeviceHandle & { screenshotRaw?(ctx: CallContext): Promise<RawScreen> }, ctx: CallContext): Promise<ScreenImage> {
  if (device.screenshotRaw) {
    const raw = await device.screenshotRaw(ctx);
    return { raw, width: raw.width, height: raw.height };
  }
  const shot = await device.screenshot(ctx);
  return { png: shot.png, width: shot.width, height: shot.height };
}

/** Parameters as shown to other participants: long strings cut so activity stays small. */
function summarize(parameters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parameters)) {
    out[k] = typeof v === 'string' && v.length > MAX_PARAMETER_CHARS ? `${v.slice(0, MAX_PARAMETER_CHARS)}… (${v.length} characters)` : v;
  }
  return out;
}

export function outcomeOf(result: unknown): ActivityOutcome {
  if (isToolFailure(result)) return { status: 'error', code: result.code, message: result.message };
  const message = (result as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? { status: 'success', message } : { status: 'success' };
}

/**
 * Everything per device that sessions share: subscriptions, the frame pipeline, the element
 * watcher, and the fan-out of activity and lock events to the device's participants.
 */
export class DeviceHub {
  private readonly devices = new Map<string, DeviceState>();

  constructor(
    private readonly engine: Engine,
    private readonly sessions: SessionStore,
    private readonly options: HubOptions,
  ) {}

  /** Checks the device and registers the subscription; `start` begins delivery (call it after answering). */
  async subscribe(session: Session, p: ValidParamsOf<'devices.subscribe'>): Promise<{ sub: Subscription; start(): void } | ToolFailure> {
    try {
      await this.engine.withDevice(p.device, 'subscribing', (device, ctx) => device.screenSize(ctx));
    } catch (err) {
      return toFailure(err);
    }
    if (session.ended) return toFailure(new Error('the session ended while subscribing'));
    const screen: EffectiveScreenOptions | undefined = p.screen && {
      maxFps: p.screen.maxFps ?? SCREEN_DEFAULTS.maxFps,
      maxWidth: p.screen.maxWidth ?? null,
      format: p.screen.format ?? SCREEN_DEFAULTS.format,
      quality: p.screen.quality ?? SCREEN_DEFAULTS.quality,
    };
    const sub = new Subscription(session, p.device, screen, p.elements);
    session.subscriptions.set(sub.id, sub);
    const state = this.state(p.device);
    state.subs.add(sub);
    return {
      sub,
      start: () => {
        if (!state.subs.has(sub)) return;
        if (sub.screen) (state.frames ??= this.framePipeline(p.device)).add(sub);
        if (sub.elements) (state.elements ??= this.elementWatcher(p.device)).add(sub);
      },
    };
  }

  unsubscribe(sub: Subscription): void {
    sub.session.subscriptions.delete(sub.id);
    const state = this.devices.get(sub.device);
    if (!state) return;
    state.subs.delete(sub);
    if (state.frames) {
      state.frames.remove(sub);
      if (state.frames.size === 0) state.frames = undefined;
    }
    if (state.elements) {
      state.elements.remove(sub);
      if (state.elements.size === 0) state.elements = undefined;
    }
    if (state.subs.size === 0) this.devices.delete(sub.device);
  }

  /** Ends a subscription from the server side and tells its session why. */
  endSubscription(sub: Subscription, reason: string): void {
    this.unsubscribe(sub);
    sub.session.notify('subscription.ended', { subscription: sub.id, device: sub.device, reason });
  }

  dropSession(session: Session): void {
    for (const sub of [...session.subscriptions.values()]) this.unsubscribe(sub);
  }

  /** A resumed session: each frame subscription gets the current screen, element state catches up. */
  resumeSession(session: Session): void {
    for (const sub of session.subscriptions.values()) {
      const state = this.devices.get(sub.device);
      if (sub.screen) state?.frames?.resend(sub);
      if (sub.elements) state?.elements?.refresh();
    }
  }

  deviceGone(device: string, reason: string): void {
    const state = this.devices.get(device);
    if (!state) return;
    for (const sub of [...state.subs]) this.endSubscription(sub, reason);
  }

  /** Sessions with at least one subscription on the device. */
  participants(device: string): Set<Session> {
    const out = new Set<Session>();
    for (const sub of this.devices.get(device)?.subs ?? []) out.add(sub.session);
    return out;
  }

  broadcast<N extends NotificationName>(device: string, method: N, params: NotificationParams[N], also: Session[] = []): void {
    const targets = this.participants(device);
    for (const s of also) if (!s.ended) targets.add(s);
    for (const s of targets) s.notify(method, params);
  }

  activity(device: string, actor: Participant, entry: ActivityEntry): void {
    const params: DeviceActivityParams = {
      ...actor,
      device,
      ...(entry.tool ? { tool: entry.tool } : {}),
      ...(entry.verb ? { verb: entry.verb } : {}),
      parameters: summarize(entry.parameters),
      outcome: entry.outcome,
      duration_ms: Math.round(entry.durationMs * 10) / 10,
      at: new Date().toISOString(),
    };
    this.broadcast(device, 'device.activity', params);
  }

  /** Engine call listener: activity for actions, element refresh after them, free element updates from listings. */
  onCall(e: CallEvent): void {
    const state = this.devices.get(e.device);
    if (!state) return;
    if (e.mutates) {
      // A verb's own calls are shown as the one verb entry (verbs.run), not once more each.
      if (!e.partOf) {
        const actor = (e.origin && this.sessions.get(e.origin)?.participant) || { session: e.origin ?? 'local' };
        this.activity(e.device, actor, { tool: e.tool, parameters: e.parameters, outcome: outcomeOf(e.result), durationMs: e.durationMs });
      }
      state.elements?.refresh();
      state.frames?.nudge();
    } else if (e.tool === 'mobile_list_elements_on_screen' && e.ok) {
      state.elements?.adopt((e.result as { elements: UiElement[] }).elements);
    }
  }

  async stop(): Promise<void> {
    const all = [...this.devices.values()];
    this.devices.clear();
    for (const state of all) state.elements?.stop();
    await Promise.all(all.map((s) => s.frames?.stop()));
  }

  stats(): { devices: number; subscriptions: number; frames: Record<string, FrameStats> } {
    const frames: Record<string, FrameStats> = {};
    let subscriptions = 0;
    for (const [device, state] of this.devices) {
      subscriptions += state.subs.size;
      if (state.frames) frames[device] = { ...state.frames.stats };
    }
    return { devices: this.devices.size, subscriptions, frames };
  }

  private state(device: string): DeviceState {
    let state = this.devices.get(device);
    if (!state) this.devices.set(device, (state = { subs: new Set() }));
    return state;
  }

  private framePipeline(device: string): FramePipeline {
    return new FramePipeline(device, {
      capture: () => this.engine.withDevice(device, 'screen capture', (d, ctx) => captureScreen(d, ctx), this.options.captureTimeoutMs),
      onGone: (reason) => this.deviceGone(device, reason),
      log: this.options.log,
    });
  }

  private elementWatcher(device: string): ElementWatcher {
    return new ElementWatcher(device, this.options.elementsPollMs, {
      list: () => this.engine.withDevice(device, 'element watch', (d, ctx) => d.listElements(ctx), this.options.captureTimeoutMs),
      onGone: (reason) => this.deviceGone(device, reason),
      log: this.options.log,
    });
  }
}

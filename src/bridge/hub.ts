import type { DeviceHandle, VideoStream } from '../engine/driver.js';
import type { CallEvent, Engine } from '../engine/engine.js';
import { failure, toFailure, type ToolFailure } from '../engine/errors.js';
import type { DeviceInfo, UiElement } from '../engine/types.js';
import {
  SCREEN_DEFAULTS,
  type DeviceActivityParams,
  type EffectiveScreenOptions,
  type NotificationName,
  type NotificationParams,
  type Participant,
  type ValidParamsOf,
} from '../protocol/index.js';
import { ActivityFeed, type ActivityEntry } from './activity/feed.js';
import { ElementWatcher } from './elements.js';
import { IdleCollector } from './idle-gc.js';
import { encodingRefused } from './encoding-cap.js';
import { FramePipeline, type FrameStats } from './frames.js';
import { SharedNotification } from './outgoing.js';
import type { Session, SessionStore } from './sessions.js';
import { Subscription } from './sessions.js';
import { DeviceVideo, type VideoRoute } from './video-hub.js';
import type { VideoSettings, VideoStats } from './video-settings.js';
import { pollStream, videoUnavailable, wantsVideo } from './video-routing.js';

export interface HubOptions {
  elementsPollMs: number;
  captureTimeoutMs: number;
  /** A frame unsent this long (the peer's socket full) ends the connection of a subscriber that stopped reading. */
  frameStallMs: number;
  /**
   * Screen subscriptions one session may hold to one device: each format and width is an encode of
   * every frame, so one client with sixty of them took the frames of every other viewer (98 → 6 in 10 s).
   */
  maxScreenSubscriptions: number;
  /**
   * Distinct screenshot encodings one device serves over all sessions: the per-session cap alone let
   * one client with fifteen connections take a viewer from 30 to 6 fps.
   */
  maxScreenEncodings: number;
  video: VideoSettings;
  log(line: string): void;
}

interface DeviceState {
  subs: Set<Subscription>;
  frames?: FramePipeline;
  elements?: ElementWatcher;
  video?: DeviceVideo;
  size?: { width: number; height: number };
  /** What the engine last said the device is (subscribe, each video start); handles themselves are never kept. */
  info?: DeviceInfo;
  /** Why delivery is paused (the device went away); subscriptions stay and resume when it is back. */
  paused?: string;
  probe?: NodeJS.Timeout;
}

/** How often a paused device is looked for, besides the drivers' own device events. */
const PAUSED_PROBE_MS = 2000;

export { outcomeOf, type ActivityEntry } from './activity/feed.js';

/**
 * Everything per device that sessions share: subscriptions, the frame pipeline, the element
 * watcher, and the fan-out of activity and lock events to the device's participants.
 */
export class DeviceHub {
  private readonly devices = new Map<string, DeviceState>();
  /** Names, masks, merges and remembers activity (the last 50 entries per device for late joiners). */
  readonly feed: ActivityFeed;
  /**
   * One full GC 15 s after the last screen capture (2 s after a session ends), so memory turned
   * over by streaming goes back. Not sooner after a capture: a virtual phone lets go of its screen
   * 5 s after the last capture and its spare buffers 3–6 s later; a GC at 10 s sometimes ran before
   * the last of them was garbage, and an idle bridge kept that 10 MB screen until the next load.
   */
  private readonly collector = new IdleCollector(15_000);

  constructor(
    private readonly engine: Engine,
    private readonly sessions: SessionStore,
    private readonly options: HubOptions,
  ) {
    this.feed = new ActivityFeed({
      list: (device) => this.engine.withDevice(device, 'naming the field typed into', (d, ctx) => d.listElements(ctx), this.options.captureTimeoutMs),
      broadcast: (device, params: DeviceActivityParams) => this.broadcast(device, 'device.activity', params),
      log: this.options.log,
    });
  }

  /** Checks the device and registers the subscription; `start` begins delivery (call it after answering). */
  async subscribe(session: Session, p: ValidParamsOf<'devices.subscribe'>): Promise<{ sub: Subscription; start(): void } | ToolFailure> {
    let handle: DeviceHandle;
    let size: { width: number; height: number };
    try {
      [handle, size] = await this.engine.withDevice(p.device, 'subscribing', async (device, ctx) => [device, await device.screenSize(ctx)] as const);
    } catch (err) {
      return toFailure(err);
    }
    if (session.ended) return toFailure(new Error('the session ended while subscribing'));
    if (p.screen) {
      const held = [...session.subscriptions.values()].filter((s) => s.device === p.device && s.screen).length;
      const max = this.options.maxScreenSubscriptions;
      if (held >= max) return failure('INVALID_PARAMETER', `this session already holds ${held} screen subscriptions to ${p.device}, the most one session may (${max}: each is encoded apart for every frame); unsubscribe one with devices.unsubscribe, or subscribe without "screen"`);
    }
    const screen: EffectiveScreenOptions | undefined = p.screen && {
      maxFps: p.screen.maxFps ?? SCREEN_DEFAULTS.maxFps,
      maxWidth: p.screen.maxWidth ?? null,
      format: p.screen.format ?? SCREEN_DEFAULTS.format,
      quality: p.screen.quality ?? SCREEN_DEFAULTS.quality,
    };
    const video = screen && wantsVideo(screen, handle.info) ? videoUnavailable(handle, this.options.video) : 'no video';
    if (screen && video !== undefined) {
      const refused = encodingRefused(p.device, this.devices.get(p.device)?.subs ?? [], screen, size.width, this.options.maxScreenEncodings);
      if (refused) return refused;
    }
    const sub = new Subscription(session, p.device, screen, p.elements);
    session.subscriptions.set(sub.id, sub);
    const state = this.state(p.device);
    state.subs.add(sub);
    state.size = size;
    state.info = handle.info;
    if (screen && wantsVideo(screen, handle.info)) {
      if (video === undefined) await (state.video ??= this.deviceVideo(p.device)).add(sub);
      else sub.stream = pollStream(screen, handle.info, video);
    } else if (screen) sub.stream = pollStream(screen, handle.info);
    // What the answer will say: video that starts or breaks before `start` changes it unannounced.
    const answered = sub.stream;
    return {
      sub,
      start: () => {
        if (!state.subs.has(sub)) return;
        // Set even while paused: deviceBack and the video only serve subscriptions that were answered.
        sub.delivering = true;
        if (!sameStream(answered, sub.stream)) this.announceStream(p.device, sub);
        if (state.paused) {
          // Subscribed in the gap between a device event and the probe: its first word is the pause, so
          // the `subscription.resumed` that follows is the end of something it was told about.
          sub.session.notify('subscription.paused', { subscription: sub.id, device: p.device, reason: state.paused });
          return;
        }
        if (sub.screen && state.video?.has(sub) && state.video.live) state.video.prime(sub);
        else if (sub.screen) (state.frames ??= this.framePipeline(p.device)).add(sub);
        if (sub.elements) (state.elements ??= this.elementWatcher(p.device)).add(sub);
      },
    };
  }

  unsubscribe(sub: Subscription): void {
    sub.session.subscriptions.delete(sub.id);
    const state = this.devices.get(sub.device);
    if (!state) return;
    state.subs.delete(sub);
    this.leaveFrames(state, sub);
    state.video?.remove(sub);
    if (state.elements) {
      state.elements.remove(sub);
      if (state.elements.size === 0) state.elements = undefined;
    }
    // The video keeps its grace period (a reload should not restart the encoder) unless it is idle.
    if (state.subs.size === 0 && !state.video?.live) {
      clearInterval(state.probe);
      void state.video?.stop();
      this.devices.delete(sub.device);
    }
  }

  /** Ends a subscription from the server side and tells its session why. */
  endSubscription(sub: Subscription, reason: string): void {
    this.unsubscribe(sub);
    sub.session.notify('subscription.ended', { subscription: sub.id, device: sub.device, reason });
  }

  dropSession(session: Session): void {
    for (const sub of [...session.subscriptions.values()]) this.unsubscribe(sub);
    // An ended session leaves its notification ring and sockets as garbage: collect it soon (not
    // before screens still being let go after the last capture, which keep the later time).
    this.collector.touch(2_000);
  }

  /** A resumed session: each frame subscription gets the current screen, each element subscription a reset. */
  resumeSession(session: Session): void {
    for (const sub of session.subscriptions.values()) {
      const state = this.devices.get(sub.device);
      if (sub.screen && state?.video?.has(sub) && state.video.live) state.video.resume(sub);
      else if (sub.screen) state?.frames?.resend(sub);
      // Its diffs went when the socket dropped (Session.dropElementDiffs).
      if (sub.elements) state?.elements?.startOver(sub);
    }
  }

  /**
   * The device went away (unplugged, adb server restarted): delivery pauses, subscriptions stay
   * (issue 16). They resume by themselves when the device is back (deviceBack, or the probe).
   */
  deviceGone(device: string, reason: string): void {
    const state = this.devices.get(device);
    if (!state || state.paused) return;
    state.paused = reason;
    const frames = state.frames;
    state.frames = undefined;
    void frames?.stop();
    state.elements?.stop();
    state.elements = undefined;
    for (const sub of state.subs) sub.session.notify('subscription.paused', { subscription: sub.id, device, reason });
    state.probe = setInterval(() => void this.probe(device), PAUSED_PROBE_MS);
    state.probe.unref();
  }

  /** The device is there again: paused subscriptions get frames and element events again, from a fresh start. */
  deviceBack(device: string): void {
    const state = this.devices.get(device);
    if (!state?.paused) return;
    clearInterval(state.probe);
    state.probe = undefined;
    state.paused = undefined;
    for (const sub of state.subs) {
      sub.lastSeq = -1;
      sub.inFlight = false;
      if (sub.screen && state.video?.has(sub) && state.video.live) state.video.prime(sub);
      else if (sub.screen) (state.frames ??= this.framePipeline(device)).add(sub);
      if (sub.elements) (state.elements ??= this.elementWatcher(device)).add(sub);
      sub.session.notify('subscription.resumed', { subscription: sub.id, device });
    }
    // Video that failed while the device was away is tried again now, not after the backoff (up to retryMaxMs).
    state.video?.retryNow();
  }

  private async probe(device: string): Promise<void> {
    try {
      await this.engine.withDevice(device, 'looking for the device again', (d, ctx) => d.screenSize(ctx), this.options.captureTimeoutMs);
      this.deviceBack(device);
    } catch {
      // Still away: the next probe or a device event will tell.
    }
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
    if (targets.size === 0) return;
    const message = new SharedNotification(method, params as Record<string, unknown>);
    for (const s of targets) s.notifyShared(message);
  }

  activity(device: string, actor: Participant, entry: ActivityEntry): void {
    this.feed.publish(device, actor, entry);
  }

  /** Engine call listener: activity for actions, element refresh after them, free element updates from listings. */
  onCall(e: CallEvent): void {
    // Activity is kept for late joiners even while nobody watches the device.
    this.feed.onCall(e, () => (e.origin && this.sessions.get(e.origin)?.participant) || { session: e.origin ?? 'local' });
    const state = this.devices.get(e.device);
    if (!state) return;
    if (e.mutates) {
      state.elements?.refresh();
      state.frames?.nudge();
    } else if (e.tool === 'mobile_list_elements_on_screen' && e.ok) {
      const result = e.result as { elements: UiElement[]; note?: string };
      state.elements?.adopt(result.elements, result.note);
    }
  }

  async stop(): Promise<void> {
    const all = [...this.devices.values()];
    this.devices.clear();
    this.collector.stop();
    for (const state of all) clearInterval(state.probe);
    for (const state of all) state.elements?.stop();
    await Promise.all(all.flatMap((s) => [s.frames?.stop(), s.video?.stop()]));
  }

  stats(): { devices: number; subscriptions: number; frames: Record<string, FrameStats>; video: Record<string, VideoStats> } {
    const frames: Record<string, FrameStats> = {};
    const video: Record<string, VideoStats> = {};
    let subscriptions = 0;
    for (const [device, state] of this.devices) {
      subscriptions += state.subs.size;
      if (state.frames) frames[device] = { ...state.frames.stats };
      if (state.video) video[device] = state.video.stats();
    }
    return { devices: this.devices.size, subscriptions, frames, video };
  }

  private state(device: string): DeviceState {
    let state = this.devices.get(device);
    if (!state) this.devices.set(device, (state = { subs: new Set() }));
    return state;
  }

  private framePipeline(device: string): FramePipeline {
    return new FramePipeline(device, {
      // Kept by the engine too, so an agent's screenshot right after a frame can reuse it.
      capture: () => {
        this.collector.touch();
        return this.engine.captureFrame(device, this.options.captureTimeoutMs);
      },
      onGone: (reason) => this.deviceGone(device, reason),
      stallMs: this.options.frameStallMs,
      onStalled: (sub) =>
        sub.session.connection?.close(1008, `not reading frames: a frame left unsent or a ping unanswered for ${this.options.frameStallMs / 1000} s; resume the session to catch up`),
      log: this.options.log,
    });
  }

  private deviceVideo(device: string): DeviceVideo {
    const video: DeviceVideo = new DeviceVideo(
      device,
      {
        open: (maxFps) => this.openVideo(device, maxFps),
        route: (sub, route) => this.routeVideo(device, sub, route),
        deviceSize: () => this.devices.get(device)?.size ?? { width: 1, height: 1 },
        // The state outlived its last subscriber only for the video's grace period (unsubscribe):
        // after it, neither /api/health nor a paused device's probe should still count the device.
        unused: () => {
          const state = this.devices.get(device);
          if (state?.video !== video || state.subs.size > 0) return;
          clearInterval(state.probe);
          this.devices.delete(device);
        },
        log: this.options.log,
      },
      this.options.video,
    );
    return video;
  }

  /**
   * Opens the device's stream on the handle the engine has now. A replug closes the old handle and
   * the driver makes a new one: a handle kept from the first subscriber failed every retry after
   * that ("… was closed"), so video never came back. The lookup waits its turn in the device's
   * queue; the stream itself is opened outside it, as before.
   */
  private async openVideo(device: string, maxFps: number): Promise<VideoStream> {
    const handle = await this.engine.withDevice(device, 'starting live video', async (d) => d, this.options.captureTimeoutMs);
    const state = this.devices.get(device);
    if (state) state.info = handle.info;
    const unavailable = videoUnavailable(handle, this.options.video);
    if (unavailable !== undefined || !handle.openVideo) throw new Error(unavailable ?? `${device} has no live video`);
    return handle.openVideo({ maxSize: this.options.video.maxSize, maxFps });
  }

  /** Moves a video subscriber between the device's video and screenshot polling, and tells it when that changes. */
  private routeVideo(device: string, sub: Subscription, route: VideoRoute): void {
    const state = this.devices.get(device);
    if (!state?.subs.has(sub) || !sub.screen || !state.info) return;
    const before = sub.stream;
    sub.stream = route.live ? { format: route.live.codec, source: route.live.source } : pollStream(sub.screen, state.info, route.reason);
    if (!sub.delivering) return;
    if (route.live) {
      this.leaveFrames(state, sub);
      state.video?.prime(sub);
    } else (state.frames ??= this.framePipeline(device)).add(sub);
    if (before && sameStream(before, sub.stream)) return;
    this.announceStream(device, sub);
  }

  private announceStream(device: string, sub: Subscription): void {
    const now = sub.stream;
    if (!now) return;
    sub.session.notify('stream.changed', {
      subscription: sub.id,
      device,
      format: now.format,
      source: now.source,
      ...(now.fallbackReason ? { fallback_reason: now.fallbackReason } : {}),
    });
  }

  private leaveFrames(state: DeviceState, sub: Subscription): void {
    if (!state.frames) return;
    state.frames.remove(sub);
    if (state.frames.size === 0) state.frames = undefined;
  }

  private elementWatcher(device: string): ElementWatcher {
    return new ElementWatcher(device, this.options.elementsPollMs, {
      list: () =>
        this.engine.withDevice(device, 'element watch', (d, ctx) => d.listElements(ctx), this.options.captureTimeoutMs).then((elements) => {
          this.feed.memory.saw(device, elements);
          return elements;
        }),
      onGone: (reason) => this.deviceGone(device, reason),
      log: this.options.log,
    });
  }
}

function sameStream(a: Subscription['stream'], b: Subscription['stream']): boolean {
  return a?.format === b?.format && a?.source === b?.source && a?.fallbackReason === b?.fallbackReason;
}

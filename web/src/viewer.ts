import type { DeviceInfo, UiElement } from '../../src/engine/types.js';
import type { BridgeClient, SessionEvent } from '../../src/protocol/client.js';
import type { DecodedFrame, FrameHeader } from '../../src/protocol/frame.js';
import { isFailureResult, type ScreenOptions } from '../../src/protocol/methods.js';
import type { DeviceActivityParams, ElementsChangedParams, StreamChangedParams } from '../../src/protocol/notifications.js';
import type { ToolCall } from './actions.js';
import { ElementStore } from './element-store.js';
import { elementAt } from '../../src/engine/hit-test.js';
import type { Point } from './geometry.js';
import { RateMeter, SmoothedLatency } from './stats.js';

/** What the controller drives on the page; main.ts binds it to the DOM. */
export interface ViewerUi {
  deviceChosen(device: DeviceInfo | undefined): void;
  paintFrame(frame: DecodedFrame): void;
  clearScreen(): void;
  screenSize(size: { width: number; height: number }): void;
  /** `note`: what the device says about the listing, to show beside it (see ElementsChangedParams.note). */
  elements(list: readonly UiElement[], fresh: readonly string[], note: string | undefined): void;
  hovered(element: UiElement | undefined): void;
  activity(activity: DeviceActivityParams): void;
  notice(message: string): void;
  /** Why the user's actions must not reach the device now (a lock this page lost), else undefined. */
  inputRefusal?(): string | undefined;
  /** What the page can do about a refusal (PERMISSION_DENIED) while someone else holds the device, else undefined. */
  lockAdvice?(): string | undefined;
  /** The device's subscription is in place: fetch what a late joiner missed. */
  watching?(device: DeviceInfo): void;
}

/**
 * The viewer's state and its protocol traffic: which device is watched, its subscription and
 * element list, and the tool calls that user input becomes. No DOM here beyond what ViewerUi
 * exposes, so the flow reads in one place.
 */
export class Viewer {
  private device: DeviceInfo | undefined;
  private subscription: string | undefined;
  private store: ElementStore | undefined;
  private hoverPoint: Point | undefined;
  /** The subscription whose first frame was painted already. */
  private firstFrameOf: string | undefined;
  readonly fps = new RateMeter();
  readonly frameLatency = new SmoothedLatency();
  readonly callLatency = new SmoothedLatency();
  /** Where the watched screen comes from (SPEC §9), for the status bar. */
  stream: Pick<StreamChangedParams, 'format' | 'source' | 'fallback_reason'> | undefined;

  constructor(
    readonly client: BridgeClient,
    private readonly ui: ViewerUi,
    private readonly screenOptions: () => ScreenOptions,
  ) {
    client.on('elements.changed', (change) => this.onElements(change));
    client.on('device.activity', (activity) => {
      if (activity.device === this.device?.id) this.ui.activity(activity);
    });
    client.on('subscription.paused', (paused) => {
      if (paused.subscription === this.subscription) this.ui.notice(`The screen of ${paused.device} is paused: ${paused.reason}. It resumes by itself when the device is back.`);
    });
    client.on('subscription.resumed', (resumed) => {
      if (resumed.subscription === this.subscription) this.ui.notice(`${resumed.device} is back; the screen resumed.`);
    });
    client.on('subscription.ended', (ended) => {
      if (ended.subscription !== this.subscription) return;
      this.subscription = undefined;
      this.ui.notice(`The screen of ${ended.device} stopped: ${ended.reason}`);
    });
    client.on('stream.changed', (change) => {
      if (change.subscription === this.subscription) this.stream = change;
    });
    // By subscription, not device: the grid of all screens subscribes to the same device with small frames.
    client.onFrame((frame) => {
      if (frame.header.subscription === this.subscription) this.ui.paintFrame(frame);
    });
    client.onSession((event) => this.onSession(event));
  }

  get current(): DeviceInfo | undefined {
    return this.device;
  }

  get elements(): readonly UiElement[] {
    return this.store?.elements ?? [];
  }

  async choose(device: DeviceInfo): Promise<void> {
    if (device.id === this.device?.id) return;
    const previous = this.subscription;
    this.subscription = undefined;
    this.stream = undefined;
    this.device = device;
    this.store = new ElementStore(device.id);
    this.frameLatency.reset();
    this.ui.deviceChosen(device);
    this.ui.clearScreen();
    this.ui.elements([], [], undefined);
    if (previous) await this.client.unsubscribe(previous).catch(() => undefined);
    let subscription: string;
    let info: Awaited<ReturnType<BridgeClient['subscribe']>>;
    try {
      info = await this.client.subscribe(device.id, { screen: this.screenOptions(), elements: true });
      subscription = info.subscription;
    } catch (err) {
      if (this.device?.id === device.id) this.ui.notice(`Cannot watch ${device.id}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    // The user may have picked another device meanwhile.
    if (this.device?.id === device.id) {
      this.subscription = subscription;
      this.stream = info.format && info.source ? { format: info.format, source: info.source, fallback_reason: info.fallback_reason } : undefined;
      this.ui.watching?.(device);
    } else await this.client.unsubscribe(subscription).catch(() => undefined);
  }

  /** Subscribes again with the current screen options (after the browser turned out unable to decode video). */
  async restartScreen(): Promise<void> {
    const device = this.device;
    if (!device) return;
    this.device = undefined;
    await this.choose(device);
  }

  /** A frame reached the canvas: figures for the status bar, and the device size for mapping. */
  painted(header: FrameHeader, now: number): void {
    this.fps.add(now);
    // A subscription starts with the screen as last captured, possibly long ago: its age is no latency.
    if (header.subscription === this.firstFrameOf) this.frameLatency.add(Date.now() - header.captured_at);
    else this.firstFrameOf = header.subscription;
    this.ui.screenSize({ width: header.device_width, height: header.device_height });
  }

  /** The pointer is over this device pixel (undefined: it left the screen). */
  hoverAt(p: Point | undefined): void {
    this.hoverPoint = p;
    this.ui.hovered(p ? elementAt(this.elements, p) : undefined);
  }

  async tapElement(e: UiElement): Promise<void> {
    if (!this.device) return;
    await this.call({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: this.device.id, x: e.center.x, y: e.center.y } });
  }

  async rotate(): Promise<void> {
    if (!this.device) return;
    const now = await this.look({ tool: 'mobile_get_orientation', parameters: { device: this.device.id } });
    const orientation = (now as { orientation?: string } | undefined)?.orientation;
    if (!orientation) return;
    await this.call({ tool: 'mobile_set_orientation', parameters: { device: this.device.id, orientation: orientation === 'portrait' ? 'landscape' : 'portrait' } });
  }

  /** A full-resolution PNG of the screen, as mobile_take_screenshot returns it. */
  async screenshot(): Promise<{ png: Uint8Array; device: string } | undefined> {
    if (!this.device) return undefined;
    const device = this.device.id;
    const result = (await this.look({ tool: 'mobile_take_screenshot', parameters: { device } })) as { image?: string } | undefined;
    if (!result?.image) return undefined;
    return { png: Uint8Array.from(atob(result.image), (c) => c.charCodeAt(0)), device };
  }

  /** One event of a streamed drag on the watched device (input.touch); undefined when it failed (shown). */
  async touch(action: 'down' | 'move' | 'up' | 'cancel', p: Point): Promise<{ streamed: boolean; message?: string } | undefined> {
    if (!this.device) return undefined;
    const call = { tool: 'input.touch', parameters: { device: this.device.id, action, x: p.x, y: p.y } };
    // Lifting the finger ends what was started and is never held back: a finger left down would stay down on the device.
    const result = action === 'up' || action === 'cancel' ? await this.send(call) : await this.call(call);
    return result as { streamed: boolean; message?: string } | undefined;
  }

  /**
   * Runs one call that acts on the device, as the user asked (a tool call, or an input.* method, which
   * answers in the same shapes); a failure or a refusal is shown to the user and answered with undefined.
   */
  async call(call: ToolCall): Promise<unknown> {
    const refused = this.ui.inputRefusal?.();
    if (refused) {
      this.ui.notice(refused);
      return undefined;
    }
    return this.send(call);
  }

  /** Runs one call that only looks at the device (a listing, a screenshot): nothing holds it back. */
  look(call: ToolCall): Promise<unknown> {
    return this.send(call);
  }

  private async send(call: ToolCall): Promise<unknown> {
    // The client would queue it and send it on reconnect, onto a screen the user no longer sees: refuse, visibly.
    if (this.client.state !== 'open') {
      this.ui.notice(`Not sent: the bridge is unreachable (${this.client.state}). Nothing reaches the device until the connection is back.`);
      return undefined;
    }
    const started = performance.now();
    let result: unknown;
    try {
      result = call.tool === 'input.touch' || call.tool === 'input.key'
        ? await this.client.request(call.tool, call.parameters as never)
        : await this.client.callTool(call.tool, call.parameters);
    } catch (err) {
      this.ui.notice(`${call.tool} did not complete: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    this.callLatency.add(performance.now() - started);
    if (isFailureResult(result)) {
      // The bridge's refusal speaks to API callers (devices.lock takeover): lead with the page's own button.
      const advice = result.code === 'PERMISSION_DENIED' ? this.ui.lockAdvice?.() : undefined;
      this.ui.notice(`${advice ? `${advice} ` : ''}${call.tool}: ${result.code}: ${result.message}`);
      return undefined;
    }
    return result;
  }

  private onElements(change: ElementsChangedParams): void {
    if (!this.store || change.device !== this.store.device) return;
    const outcome = this.store.apply(change);
    if (outcome.kind === 'ignored') return;
    if (outcome.kind === 'gap') void this.relist();
    this.ui.elements(this.store.elements, outcome.kind === 'applied' ? outcome.fresh : [], this.store.note);
    if (this.hoverPoint) this.hoverAt(this.hoverPoint);
  }

  /** A diff went missing: take the whole list once instead of guessing. */
  private async relist(): Promise<void> {
    const store = this.store;
    if (!store) return;
    const result = await this.look({ tool: 'mobile_list_elements_on_screen', parameters: { device: store.device } });
    const listing = result as { elements?: UiElement[]; note?: string } | undefined;
    const elements = listing?.elements;
    if (!Array.isArray(elements) || store !== this.store) return;
    store.replace(elements, undefined, listing?.note);
    this.ui.elements(store.elements, [], store.note);
  }

  private onSession(event: SessionEvent): void {
    if (event.initial) return;
    const moved = event.resubscribed.find((r) => r.old === this.subscription);
    if (moved) this.subscription = moved.new;
    const lost = event.lost.find((l) => l.subscription === this.subscription);
    if (lost) {
      this.subscription = undefined;
      this.ui.notice(`Lost the screen of ${lost.device} after reconnecting: ${lost.reason}`);
    }
    if (event.dropped > 0) void this.relist();
  }
}

import type { BridgeClient, SessionEvent } from '../../src/protocol/client.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import type { DecodedFrame } from '../../src/protocol/frame.js';
import type { ScreenOptions } from '../../src/protocol/methods.js';
import { el } from './dom.js';
import { ScreenPainter } from './painter.js';

/** Small, slow JPEG frames: a wall of phones to watch, not to drive (the chosen device gets the full stream). */
export const GRID_SCREEN: ScreenOptions = { maxFps: 2, maxWidth: 240, format: 'jpeg', quality: 50 };

interface Tile {
  device: DeviceInfo;
  item: HTMLElement;
  painter: ScreenPainter;
  subscription?: string;
}

/**
 * Every usable device at once, live (STF's device wall, which ws-scrcpy and mobile-mcp lack): one
 * low-rate subscription per tile, frames routed by subscription id, so the chosen device's own stream
 * is never painted here nor a tile's frame on the main screen. Clicking a tile opens that device.
 * Nothing is subscribed while the grid is hidden.
 */
export class DeviceGrid {
  private readonly tiles = new Map<string, Tile>();
  private devices: readonly DeviceInfo[] = [];
  private shown = false;

  constructor(
    private readonly client: BridgeClient,
    private readonly root: HTMLElement,
    private readonly onOpen: (device: DeviceInfo) => void,
    private readonly notice: (message: string) => void,
  ) {
    client.onFrame((frame) => this.frame(frame));
    client.onSession((e) => this.resubscribed(e));
    client.on('subscription.ended', (ended) => {
      for (const tile of this.tiles.values()) if (tile.subscription === ended.subscription) tile.subscription = undefined;
    });
  }

  get visible(): boolean {
    return this.shown;
  }

  show(on: boolean): void {
    this.shown = on;
    this.root.hidden = !on;
    this.sync();
  }

  /**
   * A new session (the bridge restarted): the protocol client has already subscribed every tile
   * again under a new id, so the tiles take those ids rather than subscribing a second time (which
   * left the client's copies running, unwatched, for as long as the page lived). A tile whose device
   * could not be watched again is made anew by the next sync, which tries once more.
   */
  private resubscribed(event: SessionEvent): void {
    if (event.initial || event.resumed) return;
    for (const [id, tile] of this.tiles) {
      const moved = event.resubscribed.find((r) => r.old === tile.subscription);
      if (moved) tile.subscription = moved.new;
      else if (event.lost.some((l) => l.subscription === tile.subscription)) {
        tile.subscription = undefined;
        this.drop(id, tile);
      }
    }
    this.sync();
  }

  /** The device list changed (devices.changed, or a new session listed them again). */
  setDevices(devices: readonly DeviceInfo[]): void {
    this.devices = devices;
    this.sync();
  }

  /** Ready devices get a live tile; the others a tile that says their state (a wall shows who is missing). */
  private sync(): void {
    const wanted = this.shown ? this.devices : [];
    const keep = new Set(wanted.map((d) => `${d.id}|${d.state ?? 'ready'}`));
    for (const [id, tile] of this.tiles) if (!keep.has(`${id}|${tile.device.state ?? 'ready'}`)) this.drop(id, tile);
    for (const device of wanted) if (!this.tiles.has(device.id)) this.add(device);
    this.root.replaceChildren(...wanted.map((d) => this.tiles.get(d.id)!.item));
    if (this.shown && !wanted.length) this.root.append(el('p', { class: 'hint' }, 'No devices.'));
  }

  private add(device: DeviceInfo): void {
    const canvas = el('canvas', { class: 'grid-screen' });
    const item = el('button', { type: 'button', class: 'grid-tile', title: `Open ${device.id}`, 'data-id': device.id }, canvas, el('span', { class: 'grid-name' }, `${device.model} · ${device.id}`));
    item.addEventListener('click', () => this.onOpen(device));
    const tile: Tile = { device, item, painter: new ScreenPainter(canvas, () => (item.dataset.painted = 'true'), (m) => this.notice(`${device.id}: ${m}`)) };
    this.tiles.set(device.id, tile);
    const state = device.state ?? 'ready';
    if (state !== 'ready') {
      item.dataset.state = state;
      item.append(el('span', { class: 'grid-state' }, device.message ? `${state}: ${device.message}` : state));
      return;
    }
    this.client.subscribe(device.id, { screen: GRID_SCREEN, elements: false }).then(
      (info) => {
        // Hidden or dropped meanwhile: the subscription is not wanted any more.
        if (this.tiles.get(device.id) === tile) tile.subscription = info.subscription;
        else void this.client.unsubscribe(info.subscription).catch(() => undefined);
      },
      (err: unknown) => this.notice(`Cannot watch ${device.id} in the grid: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private drop(id: string, tile: Tile): void {
    this.tiles.delete(id);
    tile.painter.stop();
    if (tile.subscription) void this.client.unsubscribe(tile.subscription).catch(() => undefined);
  }

  private frame(frame: DecodedFrame): void {
    const tile = this.tiles.get(frame.header.device);
    if (tile?.subscription === frame.header.subscription) tile.painter.push(frame);
  }
}

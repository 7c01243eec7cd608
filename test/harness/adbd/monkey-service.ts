import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../../../src/engine/errors.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { AdbdStats, DeviceStream } from './adbd.js';
import { ByteQueue } from './byte-queue.js';
import { buttonForKey } from './phone-shell.js';

const ctx = () => ({ signal: new AbortController().signal });
const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;

/**
 * The `monkey --port` line protocol (MonkeySourceNetwork): tap, touch down/move/up, press, key,
 * type, sleep, wake, quit, done; each line answered "OK" or "ERROR:<why>". Each batch of lines the
 * host writes counts as one round trip.
 */
export interface MonkeyFate {
  /** Injection is forbidden (MIUI without "USB debugging (Security settings)"). */
  denied(): boolean;
  /** The monkey process ended: its port stops answering. */
  died(): void;
  /** Input goes nowhere the app sees (screen off, lock screen showing). */
  blocked(): boolean;
}

const INJECTING = new Set(['tap', 'touch', 'press', 'key', 'type', 'trackball', 'flip']);

export async function runMonkey(stream: DeviceStream, phone: VirtualDevice, stats: AdbdStats, fate?: MonkeyFate): Promise<void> {
  stream.on('data', () => stats.extraRoundTrips++);
  const input = new ByteQueue(stream);
  let down: { x: number; y: number; at: number; moved: boolean } | undefined;
  for (;;) {
    const line = await input.readLine();
    if (line === null) return;
    const [verb, ...args] = line.trim().split(/\s+/);
    const n = args.map(Number);
    let reply = 'OK';
    if (fate?.denied() && INJECTING.has(verb)) {
      // MonkeySourceNetwork answers OK once the events are queued; injecting them then throws
      // SecurityException (INJECT_EVENTS) and the monkey process dies, closing the socket.
      await stream.write('OK\n');
      fate.died();
      stream.close();
      return;
    }
    if (fate?.blocked() && INJECTING.has(verb)) {
      await stream.write('OK\n');
      continue;
    }
    try {
      if (verb === 'tap') await phone.tap(n[0], n[1], ctx());
      else if (verb === 'touch' && args[0] === 'down') down = { x: n[1], y: n[2], at: Date.now(), moved: false };
      else if (verb === 'touch' && args[0] === 'move' && down) down.moved ||= Math.hypot(n[1] - down.x, n[2] - down.y) > TOUCH_SLOP_PX;
      else if (verb === 'touch' && args[0] === 'up' && down) {
        const start = down;
        down = undefined;
        const held = Date.now() - start.at;
        if (start.moved || Math.hypot(n[1] - start.x, n[2] - start.y) > TOUCH_SLOP_PX) await phone.swipe(start.x, start.y, n[1], n[2], held, ctx());
        else if (held >= LONG_PRESS_MS) await phone.longPress(start.x, start.y, held, ctx());
        else await phone.tap(start.x, start.y, ctx());
      } else if (verb === 'press') {
        const button = buttonForKey(args[0]);
        if (button) await phone.pressButton(button, ctx());
      } else if (verb === 'sleep') await sleep(n[0]);
      else if (verb === 'type') await phone.typeText(args.join(' '), ctx());
      else if (verb === 'quit' || verb === 'done') {
        await stream.write('OK\n');
        return;
      } else if (verb !== 'wake' && verb !== 'key' && verb !== '') reply = `ERROR:unknown command ${verb}`;
    } catch (err) {
      // Injection succeeds whatever the app makes of the event; only harness faults are errors.
      if (!(err instanceof ToolError)) reply = `ERROR:${(err as Error).message}`;
    }
    await stream.write(`${reply}\n`);
  }
}

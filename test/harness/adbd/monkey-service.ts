import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../../../src/engine/errors.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { AdbdStats, DeviceStream } from './adbd.js';
import { ByteQueue } from './byte-queue.js';
import { buttonForKey } from './input-command.js';

const ctx = () => ({ signal: new AbortController().signal });
const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;

/**
 * The `monkey --port` line protocol as MonkeySourceNetwork serves it: a line is translated into
 * queued events and answered at once ("OK", or "ERROR:<why>" for a bad one), and the next line is
 * read only after the queued events were injected — so the answer to a line says it was accepted,
 * and the answer to the line after it that it was carried out. Lines naming no command, empty lines
 * and `#` comments get no answer at all. `quit` answers OK and ends; `done` (or the host closing)
 * ends without one. Each batch of lines the host writes counts as one round trip.
 */
export interface MonkeyFate {
  /** Injection is forbidden (MIUI without "USB debugging (Security settings)"). */
  denied(): boolean;
  /** The monkey process ended: its port stops answering. */
  died(): void;
  /** Input goes nowhere the app sees (screen off, lock screen showing). */
  blocked(): boolean;
  /** Logical (`wm size`) coordinates to panel pixels. */
  toPanel(numbers: number[], count: number): number[];
}

const INJECTING = new Set(['tap', 'touch', 'press', 'key', 'type', 'trackball', 'flip']);
/** MonkeySourceNetwork's COMMAND_MAP: lines naming anything else are read and not answered. */
const COMMANDS = new Set(['flip', 'touch', 'trackball', 'key', 'sleep', 'wake', 'tap', 'press', 'type', 'listvar', 'getvar', 'listviews', 'queryview', 'getrootview', 'getviewswithtext', 'deferreturn']);
/** The commands this emulation carries out (`key` and `wake` are accepted and change nothing here). */
const EMULATED = new Set(['tap', 'touch', 'press', 'sleep', 'type', 'key', 'wake']);

/**
 * MonkeySourceNetwork's commandLineSplit: words split on runs of whitespace (StringTokenizer); a
 * word starting with `"` opens a quoted run that a later word ending in `"` closes (never the
 * opening word itself), its words joined with one space and the outer quotes cut; `\"` reads as `"`
 * in every word. A run never closed is dropped.
 */
export function commandLineSplit(line: string): string[] {
  const parts: string[] = [];
  let quoted: string | undefined;
  for (const word of line.split(/[ \t\n\r\f]+/)) {
    if (word === '') continue;
    const plain = word.replaceAll('\\"', '"');
    if (quoted === undefined && word.startsWith('"')) quoted = plain;
    else if (quoted === undefined) parts.push(plain);
    else if (word.endsWith('"')) {
      parts.push(`${quoted} ${plain}`.slice(1, -1));
      quoted = undefined;
    } else quoted += ` ${plain}`;
  }
  return parts;
}

export async function runMonkey(stream: DeviceStream, phone: VirtualDevice, stats: AdbdStats, fate?: MonkeyFate): Promise<void> {
  stream.on('data', (chunk: Buffer) => {
    stats.extraRoundTrips++;
    stats.monkeyInput.push(chunk.toString('utf8'));
  });
  const input = new ByteQueue(stream);
  let down: { x: number; y: number; at: number; moved: boolean } | undefined;
  // TapCommand queues DOWN and UP; MonkeyMotionEvent stamps each with uptimeMillis as it is injected.
  const tapped = (x: number, y: number, at: number) => stats.monkeyTaps.push({ x, y, down: at, up: performance.now() });
  for (;;) {
    const line = await input.readLine();
    if (line === null) return;
    // getNextEvent compares the whole line with "done" and "quit", and skips a line starting with '#'.
    if (line === 'done') return stream.close();
    if (line === 'quit') {
      await stream.write('OK\n');
      return;
    }
    if (line.startsWith('#')) continue;
    const [verb = '', ...args] = commandLineSplit(line);
    if (!COMMANDS.has(verb)) continue;
    const numbers = args.map(Number);
    // "tap x y" and "touch down|move|up x y": the coordinates are the last two numbers.
    const n = fate ? (verb === 'touch' ? [NaN, ...fate.toPanel(numbers.slice(1), 2)] : fate.toPanel(numbers, verb === 'tap' ? 2 : 0)) : numbers;
    if (!EMULATED.has(verb)) {
      await stream.write(`ERROR:${verb} is not emulated by the test adbd\n`);
      continue;
    }
    // TapCommand, TouchCommand and SleepCommand read their numbers with Integer.parseInt / Long.parseLong:
    // "540.5" is a NumberFormatException, answered EARG ("Got something that wasn't a number").
    const numeric = verb === 'tap' || verb === 'sleep' ? args : verb === 'touch' ? args.slice(1) : [];
    if (numeric.some((a) => !/^[+-]?\d+$/.test(a))) {
      await stream.write('ERROR:Invalid Argument\n');
      continue;
    }
    if (verb === 'type' && args.length !== 1) {
      await stream.write('ERROR:Invalid Argument\n');
      continue;
    }
    if (verb === 'type' && !/^[\x20-\x7e]*$/.test(args[0])) {
      // KeyCharacterMap.getEvents has no events for it (null), and iterating over that throws
      // before any answer: the monkey process dies.
      fate?.died();
      stream.close();
      return;
    }
    // Answered as soon as the events are queued, before they are injected.
    await stream.write('OK\n');
    if (INJECTING.has(verb) && fate?.denied()) {
      // Injecting them then throws SecurityException (INJECT_EVENTS) and the monkey process dies.
      fate.died();
      stream.close();
      return;
    }
    // Input to a dark or locked screen is injected and goes nowhere the app sees.
    if (INJECTING.has(verb) && fate?.blocked()) continue;
    try {
      if (verb === 'tap') {
        tapped(n[0], n[1], performance.now());
        await phone.tap(n[0], n[1], ctx());
      } else if (verb === 'touch' && args[0] === 'down') down = { x: n[1], y: n[2], at: performance.now(), moved: false };
      else if (verb === 'touch' && args[0] === 'move' && down) down.moved ||= Math.hypot(n[1] - down.x, n[2] - down.y) > TOUCH_SLOP_PX;
      else if (verb === 'touch' && args[0] === 'up' && down) {
        const start = down;
        down = undefined;
        const held = performance.now() - start.at;
        if (start.moved || Math.hypot(n[1] - start.x, n[2] - start.y) > TOUCH_SLOP_PX) await phone.swipe(start.x, start.y, n[1], n[2], held, ctx());
        else if (held >= LONG_PRESS_MS) await phone.longPress(start.x, start.y, held, ctx());
        else {
          tapped(start.x, start.y, start.at);
          await phone.tap(start.x, start.y, ctx());
        }
      } else if (verb === 'press') {
        const button = buttonForKey(args[0]);
        if (button) await phone.pressButton(button, ctx());
      } else if (verb === 'sleep') {
        // MonkeyThrottleEvent's Thread.sleep(0) returns at once; a timer of 0 would wait 1 ms.
        if (n[0] > 0) await sleep(n[0]);
      } else if (verb === 'type') await phone.typeText(args[0], ctx());
    } catch (err) {
      // Injection succeeds whatever the app makes of the event; anything else is a harness fault,
      // and a monkey that throws dies: the connection ends.
      if (!(err instanceof ToolError)) {
        stream.close();
        throw err;
      }
    }
  }
}

import type { SourceNote } from '../engine/driver.js';
import type { Engine } from '../engine/engine.js';

/**
 * serve's log of its device sources (adb servers, --wda phones, peer bridges): a line when one
 * stops answering or its reason changes, and one when it answers again; nothing per retry. A
 * source that does not answer lists no devices, so without this a mistyped --adb or --peer would
 * show nowhere.
 */
export function logSourceNotes(engine: Engine, log: (line: string) => void): () => void {
  let last = new Map<string, SourceNote>();
  const check = () => {
    const now = new Map(engine.sourceNotes().map((n) => [n.source, n]));
    for (const [source, { text, final, fix }] of now) {
      if (last.get(source)?.text === text) continue;
      // Only a source that is down comes back by itself; one that refuses us needs the fix first.
      log(`${source}: ${text}${fix ? `; ${fix}` : final ? '' : '; its devices appear by themselves once it answers (retried in the background)'}`);
    }
    for (const [source, { via }] of last) {
      // A peer that went down hides its own notes: that is not its sources answering again.
      if (!now.has(source) && !(via !== undefined && now.has(via))) log(`${source} answers again`);
    }
    last = now;
  };
  const off = engine.onDevicesChanged(check);
  void engine.listDevices().then(check, () => undefined);
  return off;
}

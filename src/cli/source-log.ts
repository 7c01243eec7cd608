import type { Engine } from '../engine/engine.js';

/**
 * serve's log of its device sources (adb servers, --wda phones, peer bridges): a line when one
 * stops answering or its reason changes, and one when it answers again; nothing per retry. A
 * source that does not answer lists no devices, so without this a mistyped --adb or --peer would
 * show nowhere.
 */
export function logSourceNotes(engine: Engine, log: (line: string) => void): () => void {
  let last = new Map<string, string>();
  const check = () => {
    const now = new Map(engine.sourceNotes().map((n) => [n.source, n.text]));
    for (const [source, text] of now) {
      if (last.get(source) !== text) log(`${source}: ${text}; its devices appear by themselves once it answers (retried in the background)`);
    }
    for (const source of last.keys()) if (!now.has(source)) log(`${source} answers again`);
    last = now;
  };
  const off = engine.onDevicesChanged(check);
  void engine.listDevices().then(check, () => undefined);
  return off;
}

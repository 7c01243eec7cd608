/**
 * Who changed a device lately (issue 16): a caller is told when another caller acted on the device
 * since its own last call there, so an agent knows the screen may not be the one it left.
 */
export interface OtherAction {
  origin: string;
  tool: string;
  at: string;
}

const KEPT = 32;
const REPORTED = 5;

export class DeviceActivity {
  private seq = 0;
  private readonly recent = new Map<string, { seq: number; action: OtherAction }[]>();
  private readonly seen = new Map<string, number>();

  /** Mutating calls of other origins on `device` since `origin`'s previous call there (none on its first). */
  othersSince(device: string, origin: string): { actions: OtherAction[]; more: number } | undefined {
    const last = this.seen.get(`${device}\u0000${origin}`);
    if (last === undefined) return undefined;
    const others = (this.recent.get(device) ?? []).filter((e) => e.seq > last && e.action.origin !== origin).map((e) => e.action);
    if (!others.length) return undefined;
    return { actions: others.slice(-REPORTED), more: Math.max(0, others.length - REPORTED) };
  }

  record(device: string, origin: string, tool: string, mutates: boolean): void {
    this.seq++;
    if (mutates) {
      const list = this.recent.get(device) ?? [];
      list.push({ seq: this.seq, action: { origin, tool, at: new Date().toISOString() } });
      if (list.length > KEPT) list.splice(0, list.length - KEPT);
      this.recent.set(device, list);
    }
    this.seen.set(`${device}\u0000${origin}`, this.seq);
  }

  /** The caller is gone for good (its session ended): nobody will ask what happened since its last call. */
  forgetCaller(origin: string): void {
    for (const key of this.seen.keys()) if (key.endsWith(`\u0000${origin}`)) this.seen.delete(key);
  }

  forget(device: string): void {
    this.recent.delete(device);
    for (const key of this.seen.keys()) if (key.startsWith(`${device}\u0000`)) this.seen.delete(key);
  }
}

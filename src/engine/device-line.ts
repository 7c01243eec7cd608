/** One piece of work in a device's line, from its arrival until it settles or gives up its slot. */
export interface Ticket {
  what: string;
  /** The caller (a bridge session's id, `mcp`); none for the bridge's own work (frames, element watch). */
  origin?: string;
  arrived: number;
  started?: number;
  /** The line as it stood when this one joined: calls ahead go (done or expired) before it gets its turn. */
  found: { running?: Ticket; byOrigin: Map<string | undefined, number> };
}

interface Line {
  tickets: Set<Ticket>;
  byOrigin: Map<string | undefined, number>;
}

/**
 * Who is in each device's line, so that a call that never got its turn can say what it waited
 * behind and whose it was: behind another caller's backlog the device is busy, not hung.
 */
export class DeviceLines {
  private readonly lines = new Map<string, Line>();

  join(device: string, what: string, origin: string | undefined): Ticket {
    let line = this.lines.get(device);
    if (!line) this.lines.set(device, (line = { tickets: new Set(), byOrigin: new Map() }));
    let running: Ticket | undefined;
    for (const t of line.tickets) {
      if (t.started === undefined) break;
      running = t;
    }
    const ticket: Ticket = { what, arrived: performance.now(), ...(origin !== undefined ? { origin } : {}), found: { ...(running ? { running } : {}), byOrigin: new Map(line.byOrigin) } };
    line.tickets.add(ticket);
    line.byOrigin.set(origin, (line.byOrigin.get(origin) ?? 0) + 1);
    return ticket;
  }

  leave(device: string, ticket: Ticket): void {
    const line = this.lines.get(device);
    if (!line?.tickets.delete(ticket)) return;
    const n = line.byOrigin.get(ticket.origin)! - 1;
    if (n > 0) line.byOrigin.set(ticket.origin, n);
    else line.byOrigin.delete(ticket.origin);
    if (line.tickets.size === 0) this.lines.delete(device);
  }

  /** Whether `ticket` is still in its line (it has not settled nor given up its slot). */
  has(device: string, ticket: Ticket): boolean {
    return this.lines.get(device)?.tickets.has(ticket) ?? false;
  }
}

export interface LineView {
  /** Whether a ticket is still in its line (running or waiting). */
  stillThere(t: Ticket): boolean;
  /** What ran into its deadline on the device, when it is judged hung now (DeviceHealth). */
  hung?: string;
  name(origin: string | undefined): string;
}

/**
 * Why a call did not start, for its TIMEOUT: the line it found on arrival, by caller. Only a call
 * that ran into its deadline hints at a hung device; a backlog or a long verb is a busy device.
 */
export function waitedBehind(device: string, mine: Ticket, view: LineView): string {
  const { running, byOrigin } = mine.found;
  const total = [...byOrigin.values()].reduce((a, b) => a + b, 0);
  const hung = view.hung && `${view.hung} did not finish within its deadline: the device may be hung (see mobile_list_available_devices)`;
  if (total === 0) return `it waited behind earlier calls on ${device} that did not finish; ${hung ?? 'the device may be hung (see mobile_list_available_devices)'}`;
  const counts = [...byOrigin].map(([origin, n]) => `${n} of ${view.name(origin)}`).join(', ');
  const first = running ? `, ${running.what} of ${view.name(running.origin)} having the device then` : '';
  const found = `it arrived behind ${total} ${total === 1 ? 'call' : 'calls'} on ${device} (${counts}${first})`;
  if (hung) return `${found}; ${hung}`;
  if (running && view.stillThere(running)) return `${found}; ${running.what} still has the device after ${Math.round(performance.now() - running.started!)} ms: try again once it is done`;
  if (mine.origin !== undefined && byOrigin.size === 1 && byOrigin.has(mine.origin)) return `${found}; they are all your own: wait for their answers before sending more`;
  return `${found}; the device was answering, but work sent before this call filled the time: try again once it is done`;
}

import type { DeviceActivityParams } from '../../src/protocol/notifications.js';

export interface ActivityLine {
  who: string;
  /** The bridge's own sentence: the action and the element it landed on, typed passwords as a count. */
  what: string;
  /** Secondary facts: where a named tap landed, how many calls a merged entry stands for, why text is hidden. */
  detail?: string;
  /** Local wall-clock time, HH:MM:SS. */
  when: string;
  mine: boolean;
  error?: string;
}

function detailOf(a: DeviceActivityParams): string | undefined {
  const p = a.parameters;
  const parts: string[] = [];
  if (a.element && typeof p.x === 'number' && typeof p.y === 'number') parts.push(`at (${p.x}, ${p.y})`);
  if (a.count && a.count > 1) parts.push(`${a.count} calls`);
  if (a.masked) parts.push(`text hidden: ${a.masked.reason}`);
  return parts.length ? parts.join(' · ') : undefined;
}

export function describeActivity(a: DeviceActivityParams, mySession: string | undefined): ActivityLine {
  const mine = a.session === mySession;
  const name = a.client ? `${a.client} ${a.session.slice(0, 6)}` : a.session.slice(0, 6);
  const at = new Date(a.at);
  const when = Number.isNaN(at.getTime()) ? '' : at.toTimeString().slice(0, 8);
  const line: ActivityLine = { who: mine ? `you (${name})` : name, what: a.summary, when, mine };
  const detail = detailOf(a);
  if (detail) line.detail = detail;
  if (a.outcome.status === 'error') line.error = `${a.outcome.code ?? 'ERROR'}: ${a.outcome.message ?? 'failed'}`;
  return line;
}

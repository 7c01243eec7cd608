/** What recording.stop answers (docs/agents.md): the scenario, its validation report, the recorder's summary. */
export interface StoppedRecording {
  scenario: Record<string, unknown>;
  validation: { valid: boolean; errors?: { message: string }[]; warnings?: unknown[] };
  summary: { device: string; name: string; steps: number; assertions: number; skipped: string[] };
}

export interface SummaryLine {
  kind: 'ok' | 'bad' | 'hint';
  text: string;
}

/** `<scenario_id>.json`, the name `mobilebridge run` examples use. */
export function recordedFileName(scenario: Record<string, unknown>): string {
  const id = typeof scenario.scenario_id === 'string' && /^[A-Za-z0-9_-]+$/.test(scenario.scenario_id) ? scenario.scenario_id : 'recording';
  return `${id}.json`;
}

/** The lines shown when a recording stops: what was recorded, whether it validates, what the replay needs. */
export function stoppedSummary(stopped: StoppedRecording): SummaryLine[] {
  const { summary, validation, scenario } = stopped;
  const file = recordedFileName(scenario);
  const lines: SummaryLine[] = [
    { kind: 'ok', text: `"${summary.name}": ${summary.steps} step${summary.steps === 1 ? '' : 's'}${summary.assertions ? `, ${summary.assertions} assertion${summary.assertions === 1 ? '' : 's'}` : ''} recorded on ${summary.device}.` },
  ];
  const errors = validation.errors ?? [];
  lines.push(validation.valid ? { kind: 'ok', text: 'It passes the validator as it is.' } : { kind: 'bad', text: `The validator finds ${errors.length} error${errors.length === 1 ? '' : 's'}: ${errors.slice(0, 3).map((e) => e.message).join('; ')}` });
  const parameters = Object.entries((scenario.parameters ?? {}) as Record<string, { secret?: boolean }>);
  const secrets = parameters.filter(([, p]) => p.secret).map(([name]) => name);
  if (secrets.length) {
    lines.push({ kind: 'hint', text: `What you typed into password fields is not in the file: it became the secret parameter${secrets.length === 1 ? '' : 's'} ${secrets.join(', ')}. Replay with ${['mobilebridge run', file, ...secrets.map((n) => `--param ${n}=…`)].join(' ')} (or MB_PARAM_${secrets[0]}).` });
  } else {
    lines.push({ kind: 'hint', text: `Replay with mobilebridge run ${file}.` });
  }
  for (const skipped of summary.skipped) lines.push({ kind: 'hint', text: `Not recorded: ${skipped}` });
  return lines;
}

/** Who is named to people: a client name and the start of its session id (as the lock badge does). */
interface By {
  session: string;
  client?: string;
}

/** A recording nobody holds (recording.status `orphans`): its session or process ended without stopping it. */
export interface OrphanedRecording {
  device: string;
  name: string;
  steps: number;
  started_at: string;
  started_by?: By;
  left_by: string;
}

/** A recording another session holds (recording.status `others`); `kept_for_ms` while that session may still resume. */
export interface OthersRecording {
  device: string;
  name: string;
  steps: number;
  by: By;
  connected: boolean;
  kept_for_ms?: number;
}

function byName(p: By): string {
  return p.client ? `${p.client} ${p.session.slice(0, 6)}` : `session ${p.session.slice(0, 6)}`;
}

function what(r: { name: string; steps: number }): string {
  return `${JSON.stringify(r.name)}, ${r.steps} step${r.steps === 1 ? '' : 's'}`;
}

function clock(at: Date): string {
  return Number.isNaN(at.getTime()) ? '' : at.toTimeString().slice(0, 8);
}

/**
 * Tells the user of a recording left open on the device they watch, and whose it was. `mine`: an
 * earlier session of this very page started it (the bridge restarted, the page reloaded): it is the
 * user's own work, interrupted, not a stranger's to clear away.
 */
export function orphanText(o: OrphanedRecording, mine = false): string {
  const started = clock(new Date(o.started_at));
  const described = `(${what(o)}${started ? `, started ${started}` : ''})`;
  if (mine) return `Your recording ${described} on ${o.device} was interrupted: this page's earlier session ended (the bridge restarted, or the page reloaded or was away too long). Continue it to go on recording; discard it only if you no longer want it.`;
  return o.started_by
    ? `A recording by ${byName(o.started_by)} ${described} is open on ${o.device}: that ${o.started_by.client ?? 'session'} went away without stopping it. Continue it here, discard it, or leave it.`
    : `A recording ${described} is open on ${o.device}, left by ${o.left_by}. Continue it here, discard it, or leave it.`;
}

/** Tells the user of a recording kept for a session whose connection dropped, until `until`; `mine`: an earlier session of this page. */
export function waitingText(o: OthersRecording, until: Date, mine = false): string {
  if (mine) return `Your recording (${what(o)}) on ${o.device} belongs to this page's earlier session, which the bridge keeps until ${clock(until)}; then you can continue it here.`;
  return `A recording by ${byName(o.by)} (${what(o)}) is open on ${o.device}; its connection dropped, and the recording is kept for it until ${clock(until)}. If it does not come back, you can then continue or discard it.`;
}

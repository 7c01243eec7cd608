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

/** How `run` answers when it stops before (or instead of) running scenarios. */
import { EXIT, printJson } from './command.js';

const KIND: Record<number, string> = { [EXIT.invalidInput]: 'invalid_input', [EXIT.device]: 'device', [EXIT.internal]: 'internal', [EXIT.cancelled]: 'cancelled' };

/**
 * A run that stops before its first step: the reason on stderr, and on stdout the one JSON object
 * every run prints (no runs, the error, the exit code), so a CI script reading stdout learns why.
 */
export function refuse(code: number, message: string, stderrText = `${message}\n`, runs: unknown[] = []): number {
  if (stderrText) process.stderr.write(`mobilebridge run: ${stderrText}`);
  printJson({ ok: false, data: { runs }, error: { kind: KIND[code] ?? 'internal', message }, exit_code: code });
  return code;
}

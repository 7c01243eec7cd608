/**
 * The progress lines `mobilebridge run` writes to stderr. A run of several scenarios prints one
 * block per scenario, and scenarios on different devices run side by side, their lines interleaved:
 * without names, nobody could tell which scenario a failed step or a summary belongs to.
 */

/** What a progress event carries, locally (`ProgressEvent`) or as a bridge's `scenario.progress`. */
export interface ProgressLike {
  type?: string;
  device?: string;
  step?: { status: string; step_id: string; error_message?: string | null };
  summary?: string;
}

export interface ProgressShape {
  /** Scenarios in the run: with more than one, each is named when it starts and in its summary. */
  scenarios: number;
  /** Devices running at once: with more than one, each step line begins with its device. */
  devices: number;
}

/**
 * A printer for one scenario's events. `name` is the file as the run names it; `device` the
 * device when known before the `started` event (the bridge's events carry it on each one).
 */
export function progressPrinter(name: string, shape: ProgressShape, write: (text: string) => void = (t) => process.stderr.write(t)): (e: ProgressLike) => void {
  let device: string | undefined;
  const several = shape.scenarios > 1;
  const side = shape.devices > 1;
  const where = () => (device ? ` on ${device}` : '');
  return (e) => {
    if (e.device) device = e.device;
    if (e.type === 'started' && several) write(`${name}${where()}\n`);
    if (e.type === 'step' && e.step) {
      const on = side && device ? `[${device}] ` : '';
      write(`  ${on}${e.step.status.padEnd(12)} ${e.step.step_id}${e.step.error_message ? `: ${e.step.error_message}` : ''}\n`);
    }
    if (e.type === 'finished') write(several ? `${name}${side ? where() : ''}: ${e.summary}\n` : `${e.summary}\n`);
  };
}

/** The loader hooks of load-recorder.ts (they run on the loader's own thread). */
import { appendFileSync } from 'node:fs';

let record = '';

export function initialize(data: { record: string }): void {
  record = data.record;
}

export async function load(url: string, context: unknown, next: (url: string, context: unknown) => Promise<unknown>): Promise<unknown> {
  appendFileSync(record, `${url}\n`);
  return next(url, context);
}

import { readFileSync } from 'node:fs';
import { htmlReport, junitXml } from '../../src/engine/runner/index.js';
import type { ProgressEvent } from '../../src/engine/runner/types.js';
import type { ResultDocument } from '../../src/validate/index.js';

/** Every string inside a JSON value. */
export const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

const ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };

/** Markup as its reader gets it: entities decoded. */
export const unescapeMarkup = (text: string): string =>
  text.replace(/&(quot|apos|lt|gt|amp|#(\d+)|#x([0-9a-f]+));/gi, (_, name: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ENTITIES[name.toLowerCase()]);

/**
 * What a run shows its readers, each output as the texts a person reads there (the strings of the
 * JSON, the markup's entities decoded), for a secret to be looked for in: a leak test's haystacks.
 */
export async function runOutputs(run: { document: ResultDocument; resultFile: string; events: ProgressEvent[]; name: string; outDir: string }): Promise<Record<string, string[]>> {
  const reported = [{ document: run.document, name: run.name }];
  return {
    result: strings(JSON.parse(readFileSync(run.resultFile, 'utf8'))),
    progress: strings(run.events),
    junit: [unescapeMarkup(junitXml(reported))],
    html: [unescapeMarkup(await htmlReport(run.outDir, reported))],
  };
}

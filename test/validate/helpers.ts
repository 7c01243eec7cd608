import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Repository root, from dist/test/validate. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = `${ROOT}test/fixtures/scenarios`;

export interface Expectation {
  rule: string;
  path: string;
  also?: string[];
}

export function fixtureNames(kind: 'valid' | 'invalid'): string[] {
  return readdirSync(`${FIXTURES}/${kind}`)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export function readFixture(kind: 'valid' | 'invalid', name: string): string {
  return readFileSync(`${FIXTURES}/${kind}/${name}`, 'utf8');
}

/** `x-expect` of a fixture; files that are not JSON objects encode the rule in their name. */
export function expectationOf(name: string, text: string): Expectation {
  try {
    const doc = JSON.parse(text) as { 'x-expect'?: Expectation };
    if (doc && typeof doc === 'object' && doc['x-expect']) return doc['x-expect'];
  } catch {
    // not JSON: the name says it
  }
  return { rule: name.split('.')[0], path: '' };
}

/** Captures what a command writes to stdout while it runs. */
export async function captureStdout(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await fn();
    return { code, out: chunks.join('') };
  } finally {
    process.stdout.write = original;
  }
}

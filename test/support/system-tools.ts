import { execFileSync } from 'node:child_process';

/**
 * Returns the path of a system program the tests need, or undefined with a one-line
 * reason printed so the suite can skip. Under `.ci/run` (MOBILEBRIDGE_REQUIRE_SYSTEM_TOOLS=1)
 * a missing program is an error instead: in CI nothing may skip silently.
 */
export function systemTool(name: string, why: string): string | undefined {
  let path: string | undefined;
  try {
    path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    path = undefined;
  }
  if (path) return path;
  const reason = `${name} not found on PATH (install it: apt-get install -y ${name}); ${why}`;
  if (process.env.MOBILEBRIDGE_REQUIRE_SYSTEM_TOOLS === '1') throw new Error(`required in CI: ${reason}`);
  console.log(`  skip: ${reason}`);
  return undefined;
}

import { readdirSync, readFileSync } from 'node:fs';

/** A process the suite may have started, as /proc shows it. */
export interface SuiteProcess {
  pid: number;
  argv: string[];
}

function startTicks(stat: string): number {
  // Field 22 of /proc/<pid>/stat, counted after the parenthesised command name (which may hold spaces).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/**
 * Live processes this test suite started, other than this one: those whose environment carries
 * the suite's MOBILEBRIDGE_SUITE_ID (`npm test` sets it, every child inherits it; adb daemons and
 * browser helpers detach from their parent, so ancestry would miss them). Without an id (uvu run
 * by hand), those started after this process. Linux only (/proc); elsewhere none.
 */
export function suiteProcesses(suite = process.env.MOBILEBRIDGE_SUITE_ID): SuiteProcess[] {
  if (process.platform !== 'linux') return [];
  const mine = startTicks(readFileSync('/proc/self/stat', 'utf8'));
  const found: SuiteProcess[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') || String(process.pid) === pid) continue;
      const ours = suite ? readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`MOBILEBRIDGE_SUITE_ID=${suite}`) : startTicks(stat) >= mine;
      if (!ours) continue;
      found.push({ pid: Number(pid), argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

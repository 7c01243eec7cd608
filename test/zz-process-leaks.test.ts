import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/**
 * Runs last (uvu orders test files by name): every process a test started — adb servers, browsers,
 * bridges spawned through the CLI — must be gone by now. adb daemons and browser helpers detach from
 * their parent, so ancestry would miss them; instead `npm test` gives the suite a unique
 * MOBILEBRIDGE_SUITE_ID, every child inherits it, and only processes whose environment carries this
 * suite's id are judged. Other programs (another checkout's tests, a developer's own adb or browser)
 * never count. Run without the id (uvu by hand), it falls back to "started after this process".
 */
const WATCHED = [/(^|\/)adb$/, /chrom(e|ium)/, /(^|\/)ffmpeg$/, /dist\/src\/cli\/main\.js$/];

function startTicks(stat: string): number {
  // Field 22 of /proc/<pid>/stat, counted after the parenthesised command name (which may hold spaces).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

const SUITE = process.env.MOBILEBRIDGE_SUITE_ID;

function startedBySuite(pid: string, stat: string, mine: number): boolean {
  if (!SUITE) return startTicks(stat) >= mine;
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environ.includes(`MOBILEBRIDGE_SUITE_ID=${SUITE}`);
}

function leftovers(): string[] {
  const mine = startTicks(readFileSync('/proc/self/stat', 'utf8'));
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') || String(process.pid) === pid) continue;
      if (!startedBySuite(pid, stat, mine)) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv.some((a) => WATCHED.some((re) => re.test(a)))) found.push(`${pid}: ${argv.join(' ')}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

test('no adb server, browser or bridge started by the tests is still running', async () => {
  if (process.platform !== 'linux') {
    console.log('  skip: the leak check reads /proc (Linux only)');
    return;
  }
  // Give processes told to stop a moment to exit.
  let found = leftovers();
  for (let i = 0; i < 20 && found.length; i++) {
    await new Promise((r) => setTimeout(r, 250));
    found = leftovers();
  }
  assert.equal(found, [], `processes left running by the tests:\n${found.join('\n')}`);
});

test.run();

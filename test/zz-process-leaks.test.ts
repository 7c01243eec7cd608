import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { suiteProcesses } from './support/suite-processes.js';

/**
 * Runs last (uvu orders test files by name): every process a test started — adb servers, browsers,
 * bridges spawned through the CLI — must be gone by now. adb daemons and browser helpers detach from
 * their parent, so ancestry would miss them; instead `npm test` gives the suite a unique
 * MOBILEBRIDGE_SUITE_ID, every child inherits it, and only processes whose environment carries this
 * suite's id are judged. Other programs (another checkout's tests, a developer's own adb or browser)
 * never count. Run without the id (uvu by hand), it falls back to "started after this process".
 */
const WATCHED = [/(^|\/)adb$/, /chrom(e|ium)/, /(^|\/)ffmpeg$/, /dist\/src\/cli\/main\.js$/];

function leftovers(): string[] {
  return suiteProcesses()
    .filter((p) => p.argv.some((a) => WATCHED.some((re) => re.test(a))))
    .map((p) => `${p.pid}: ${p.argv.join(' ')}`);
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

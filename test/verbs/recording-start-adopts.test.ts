import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import { RecordingStore } from '../../src/engine/verbs/recording-store.js';
import { VerbError } from '../../src/engine/verbs/types.js';

/**
 * recording_start on a device whose recording an ended session or process left adopts it, so the
 * start is refused. The refusal said only "a recording is already running", which an agent takes
 * for its own: it did not learn that its actions now extend an earlier recording (another name,
 * other steps), nor that the name it gave was not used (MCP audit: an agent restarted mid-task).
 */

const A = 'virtual-android-1';

/** The session writes without waiting: the file is looked at until it holds the step. */
async function stepSaved(dir: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    try {
      if (JSON.parse(readFileSync(join(dir, `${A}.recording.json`), 'utf8')).steps.length === 1) return;
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the recording file never held the step');
}

async function refusal(start: Promise<unknown>): Promise<VerbError> {
  const err = await start.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, VerbError, 'the start is refused');
  return err as VerbError;
}

test('a start that adopts a left recording names it, where it came from, and that the new name was not started', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-adopt-start-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const sessions: AgentSession[] = [];
  try {
    const before = new AgentSession(engine, 'before', { store: new RecordingStore(dir) });
    sessions.push(before);
    await before.startRecording({ device: A, name: 'Crash test' });
    assert.is((await before.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    await stepSaved(dir);
    before.close();

    const after = new AgentSession(engine, 'after', { store: new RecordingStore(dir) });
    sessions.push(after);
    const err = await refusal(after.startRecording({ device: A, name: 'Another name' }));
    assert.is(err.code, 'INVALID_PARAMETER', err.message);
    assert.match(err.message, /a recording of virtual-android-1 left by .+ was open on it \("Crash test", 1 step and 0 assertions so far\)/);
    assert.match(err.message, 'it is this session\'s now and goes on');
    assert.match(err.message, '"Another name" was not started');
    assert.match(err.message, 'Call recording_stop');

    // Asked again, it is this session's own recording, and says so.
    const again = await refusal(after.startRecording({ device: A, name: 'Another name' }));
    assert.match(again.message, 'this session is recording virtual-android-1 already ("Crash test", 1 step and 0 assertions so far)');
    const stopped = await after.stopRecording(A);
    assert.is(stopped.scenario.name, 'Crash test');
  } finally {
    for (const s of sessions) s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

import { Recorder } from '../../src/engine/verbs/recording.js';
import { RecordingStore } from '../../src/engine/verbs/recording-store.js';

/**
 * Another process recording a device (recording-store.test.ts): saves a recording with one step
 * into the state folder given, says "ready", and keeps running until it is killed.
 */
const [dir, device] = process.argv.slice(2);
// Loaded as a test file (uvu run on the folder without the `\.test\.js$` pattern) it has no device
// and must do nothing: it would write a recording into the folder and never exit.
if (dir && device) {
  const store = new RecordingStore(dir);
  const recorder = new Recorder({ device, os: 'Android', name: 'Held by process A' });
  recorder.noteVerb({ action: 'launch_app', value: 'com.mobilebridge.demo' }, { status: 'passed', action: 'launch_app', resolved: null, duration_ms: 1, message: 'launched' });
  await store.save(recorder);
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1 << 30);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import { Recorder } from '../../src/engine/verbs/recording.js';
import { RecordingStore } from '../../src/engine/verbs/recording-store.js';

/**
 * Two processes on one state folder, and two sessions of one process: a live recording's
 * recovery file belongs to its owner; only a recording whose process is gone is adopted.
 */

const A = 'virtual-android-1';
const HOLDER = fileURLToPath(new URL('./recording-holder.js', import.meta.url));

function fileOf(dir: string, device = A): string {
  return join(dir, `${encodeURIComponent(device)}.recording.json`);
}

async function holder(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [HOLDER, dir, A], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder process exited (${code}) before it was ready`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

const recorder = (name: string) => new Recorder({ device: A, os: 'Android', name });

test('a recording of a live process is neither adopted, overwritten nor deleted by another; once that process is dead it is an orphan', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-owner-'));
  const child = await holder(dir);
  const pid = child.pid!;
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const store = new RecordingStore(dir);
  const b = new AgentSession(engine, 'process-b', { store });
  try {
    const onDisk = () => JSON.parse(readFileSync(fileOf(dir), 'utf8')) as { owner: { pid: number }; options: { name: string }; steps: unknown[] };
    assert.is(onDisk().owner.pid, pid, 'the file names its owner');
    assert.equal(await store.orphans(), [], 'not an orphan while its process runs');
    assert.is(await store.adopt(A), undefined);
    const refused = new RegExp(`another process \\(pid ${pid}\\) is recording ${A} \\("Held by process A"\\).*cannot start, stop or take over`);
    // B's start is refused naming A's process, and B's stop neither returns nor deletes A's recording.
    const started = await b.startRecording({ device: A, name: 'B wants it' }).then(() => 'started', (err: Error) => err.message);
    assert.match(started, refused);
    const stopped = await b.stopRecording(A).then((r) => JSON.stringify(r.scenario), (err: Error) => err.message);
    assert.match(stopped, refused);
    assert.not.match(stopped, /launch_app/, 'A\'s steps are not handed to B');
    assert.is(onDisk().owner.pid, pid);
    assert.is(onDisk().options.name, 'Held by process A', 'not overwritten by B');
    assert.is(onDisk().steps.length, 1);
    await assert.not.throws(() => store.ensureFree('virtual-ios-1'));
    await store.remove(A).then(() => assert.unreachable('removed'), (err: Error) => assert.match(err.message, refused));
    assert.ok(existsSync(fileOf(dir)), 'still there');

    await kill(child);
    assert.equal(await store.orphans(), [A], 'its process is gone: an orphan');
    const adopted = await store.adopt(A);
    assert.is(adopted?.summary().name, 'Held by process A');
    assert.is(adopted?.summary().steps, 1);
    assert.is(onDisk().owner.pid, process.pid, 'claimed by the adopter on disk at once');
    await store.remove(A);
    assert.not.ok(existsSync(fileOf(dir)));
  } finally {
    await kill(child);
    b.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a refused start leaves the other process\'s recording alone even after that process dies: it is adopted whole, never overwritten', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-owner-dies-'));
  const child = await holder(dir);
  const pid = child.pid!;
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const b = new AgentSession(engine, 'process-b', { store: new RecordingStore(dir) });
  try {
    const onDisk = () => JSON.parse(readFileSync(fileOf(dir), 'utf8')) as { owner: { pid: number }; options: { name: string }; steps: unknown[] };
    await b.startRecording({ device: A, name: 'B wants it' }).then(() => assert.unreachable('started'), () => undefined);
    assert.is((await b.run(A, { action: 'launch_app', value: 'com.mobilebridge.demo' })).status, 'passed');
    await kill(child);
    assert.is((await b.run(A, { action: 'press_button', value: 'HOME' })).status, 'passed');
    // The session writes its recording without waiting (fire and forget): give those writes time to land.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal([onDisk().owner.pid, onDisk().options.name, onDisk().steps.length], [pid, 'Held by process A', 1], 'B\'s refused recording never wrote over it');
    // The refused start kept no recorder, so B's stop finds the orphan, adopts it whole and returns it.
    const stopped = await b.stopRecording(A);
    assert.is(stopped.summary.name, 'Held by process A');
    assert.equal((stopped.scenario.steps as { action: string }[]).map((x) => x.action), ['launch_app']);
    assert.not.ok(existsSync(fileOf(dir)));
  } finally {
    await kill(child);
    b.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one process: a second session is refused a recording of the same device, and ending it does not orphan the first one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-sessions-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const store = new RecordingStore(dir);
  const one = new AgentSession(engine, 'one', { store });
  const two = new AgentSession(engine, 'two', { store });
  const three = new AgentSession(engine, 'three', { store });
  try {
    await one.startRecording({ device: A, name: 'First', app_package: 'com.mobilebridge.demo' });
    const second = await two.startRecording({ device: A, name: 'Second' }).then(() => 'started', (err: Error) => err.message);
    assert.match(second, /another agent session of this process is already recording virtual-android-1 \("First"\)/);
    assert.is((JSON.parse(readFileSync(fileOf(dir), 'utf8')) as { options: { name: string } }).options.name, 'First', 'the file is the first session\'s');
    two.close();
    // The refused session ended: the first recording is still held, not an orphan for a third session.
    assert.equal(await store.orphans(), []);
    const third = await three.startRecording({ device: A, name: 'Third' }).then(() => 'started', (err: Error) => err.message);
    assert.match(third, /already recording virtual-android-1 \("First"\)/);
    assert.is((await one.run(A, { action: 'launch_app', value: 'com.mobilebridge.demo' })).status, 'passed');
    const stopped = await one.stopRecording(A);
    assert.is(stopped.summary.name, 'First');
    assert.is(stopped.summary.steps, 1);
    assert.not.ok(existsSync(fileOf(dir)));
  } finally {
    one.close();
    three.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file without an owner (written before owners were recorded) is an orphan', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-legacy-'));
  try {
    const old = new RecordingStore(dir);
    const r = recorder('Legacy');
    await old.save(r);
    const { owner: _owner, ...legacy } = JSON.parse(readFileSync(fileOf(dir), 'utf8')) as Record<string, unknown>;
    old.release(A);
    writeFileSync(fileOf(dir), JSON.stringify(legacy));
    const store = new RecordingStore(dir);
    assert.equal(await store.orphans(), [A]);
    assert.is((await store.adopt(A))?.summary().name, 'Legacy');
    await store.remove(A);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

import { PassThrough } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VerbError, type VerbClock } from '../../src/engine/verbs/index.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { LineTransport } from '../../src/mcp/stdio-transport.js';
import { ANDROID, virtualEngine } from './helpers.js';

const test = suite('MCP line transport');

/** A server on a LineTransport over in-process pipes: what goes in as bytes, and the lines it writes. */
async function piped(backend: LocalBackend) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = createMcpServer({ backend });
  await server.connect(new LineTransport(input, output));
  const lines: unknown[] = [];
  const waiters: (() => void)[] = [];
  let rest = '';
  output.on('data', (d: Buffer) => {
    rest += d.toString();
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
      lines.push(JSON.parse(rest.slice(0, end)));
      rest = rest.slice(end + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  const until = async (found: () => boolean) => {
    while (!found()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { input, lines, until, close: () => server.close() };
}

const line = (value: unknown) => JSON.stringify(value) + '\n';
const withId = (id: number) => (m: unknown) => (m as { id?: number }).id === id;

test('a message split inside a multi-byte character, across chunks, arrives whole', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const pipe = await piped(backend);
  try {
    const bytes = Buffer.from(line({ jsonrpc: '2.0', id: 'é-ü', method: 'ping' }));
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    pipe.input.write(bytes.subarray(0, cut));
    pipe.input.write(bytes.subarray(cut));
    await pipe.until(() => pipe.lines.length > 0);
    assert.equal(pipe.lines[0], { jsonrpc: '2.0', id: 'é-ü', result: {} });
  } finally {
    await pipe.close();
    await backend.close();
  }
});

test('a line longer than the limit is dropped with a word on the error channel; the lines after it are read', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const input = new PassThrough();
  const output = new PassThrough();
  const server = createMcpServer({ backend });
  const transport = new LineTransport(input, output, 1000);
  const errors: string[] = [];
  await server.connect(transport);
  const reported = transport.onerror;
  transport.onerror = (e) => {
    errors.push(e.message);
    reported?.(e);
  };
  const answers: string[] = [];
  output.on('data', (d: Buffer) => answers.push(d.toString()));
  try {
    input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(600)}`);
    input.write(`${'y'.repeat(600)}`);
    input.write(`${'z'.repeat(600)}"}}\n${line({ jsonrpc: '2.0', id: 2, method: 'ping' })}`);
    for (let i = 0; i < 100 && !answers.join('').includes('"id":2'); i++) await new Promise((r) => setTimeout(r, 5));
    assert.match(answers.join(''), '"id":2');
    assert.not.match(answers.join(''), '"id":1', 'the dropped line is not answered');
    assert.equal(errors, ['a line on stdin is longer than 1000 characters; it was dropped unread (no answer is sent for it)']);
  } finally {
    await server.close();
    await backend.close();
  }
});

test('a batch whose request is cancelled is answered with the others, not held for the one that never answers', async () => {
  const v = virtualEngine();
  let entered!: () => void;
  const waiting = new Promise<void>((resolve) => (entered = resolve));
  const clock: VerbClock = {
    now: v.verbClock.now,
    sleep: (_ms, signal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new VerbError('CANCELLED', 'cancelled')));
        entered();
      }),
  };
  const backend = new LocalBackend(v.engine, { clock, targetWaitMs: 500, settleMs: 0 });
  const pipe = await piped(backend);
  try {
    pipe.input.write(line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }));
    await pipe.until(() => pipe.lines.some(withId(1)));
    pipe.input.write(
      line([
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for', arguments: { device: ANDROID, target: 'Nothing of the kind', timeout_ms: 45000 } } },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
      ]),
    );
    await waiting;
    pipe.input.write(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }));
    // The guard only turns a batch held forever (the cancelled request waited for) into a failure instead of a hang.
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([pipe.until(() => pipe.lines.some(Array.isArray)), new Promise<void>((resolve) => (guard = setTimeout(resolve, 10_000)))]);
    clearTimeout(guard);
    assert.equal(pipe.lines.find(Array.isArray), [{ jsonrpc: '2.0', id: 3, result: {} }]);
  } finally {
    await pipe.close();
    await backend.close();
  }
});

test.run();

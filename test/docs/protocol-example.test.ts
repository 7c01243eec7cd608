import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { testBridge, until } from '../bridge/helpers.js';
import type { Bridge } from '../../src/bridge/index.js';
import { compactJson, fencedBlockAfter, readsAs, repoFile } from './doc-text.js';

// docs/protocol.md's "Example exchange" is what people copy into their first client: it is replayed
// here line by line against a bridge on fresh virtual phones, and every answer, notification and frame
// it shows must arrive as shown (ids, keys and their order, codes, wording). Only what differs by
// run is put aside: session ids, tokens, subscription ids, times, durations and the version.

interface Line {
  who: string;
  dir: '→' | '←';
  text: string;
}

/** The exchange's messages, each with the continuation lines (indented) joined to it. */
function exchangeLines(): Line[] {
  const lines: Line[] = [];
  for (const raw of fencedBlockAfter(repoFile('docs/protocol.md'), '## Example exchange').split('\n')) {
    const m = /^(\w) (→|←) (.*)$/.exec(raw);
    if (m) lines.push({ who: m[1], dir: m[2] as '→' | '←', text: m[3] });
    else if (raw.trim()) lines[lines.length - 1].text += ' ' + raw.trim();
  }
  return lines;
}

function settled(json: string): string {
  return json
    .replace(/"server":\{"name":"mobilebridge","version":"[^"]*"\}/g, '"server":VERSION')
    .replace(/"resume_token":"[^"]*"/g, '"resume_token":TOKEN')
    .replace(/\bs-[0-9a-f]{12}\b/g, 'SESSION')
    .replace(/\bsub-[0-9a-f]{10}\b/g, 'SUBSCRIPTION')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
    .replace(/"(captured_at|duration_ms)":[\d.]+/g, '"$1":0');
}

const cut = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}…` : text);

interface Frame {
  headerLength: number;
  header: string;
  image: Buffer;
}

class Party {
  readonly texts: string[] = [];
  readonly frames: Frame[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return void this.texts.push(settled(JSON.stringify(JSON.parse(String(data)))));
      const headerLength = data.readUInt32BE(0);
      this.frames.push({ headerLength, header: settled(data.subarray(4, 4 + headerLength).toString('utf8')), image: data.subarray(4 + headerLength) });
    });
  }
  static open(url: string): Promise<Party> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.once('open', () => resolve(new Party(ws)));
      ws.once('error', reject);
    });
  }
}

/** A documented binary line: `00 00 00 b5 {header} ff d8 … (n bytes of JPEG)`, or only some header fields. */
function frameMatcher(text: string): (f: Frame) => boolean {
  const full = /^((?:[0-9a-f]{2} ){4})(\{.*\}) ((?:[0-9a-f]{2} )+)…/.exec(text);
  if (full) {
    const length = parseInt(full[1].replace(/ /g, ''), 16);
    const header = settled(compactJson(full[2]));
    const start = Buffer.from(full[3].replace(/ /g, ''), 'hex');
    return (f) => f.headerLength === length && f.header === header && f.image.subarray(0, start.length).equals(start);
  }
  const fields = text.match(/"\w+":("[^"]*"|[\d.]+)/g) ?? [];
  assert.ok(fields.length > 0, `a binary line of the example names no header field: ${text}`);
  return (f) => fields.every((field) => f.header.includes(field));
}

const exchange = suite<{ bridge?: Bridge; parties: Map<string, Party> }>('docs/protocol.md: the example exchange', { parties: new Map() });

exchange.after(async (ctx) => {
  for (const party of ctx.parties.values()) party.ws.terminate();
  await ctx.bridge?.close('test over');
});

exchange('runs as printed on the virtual Android phone', async (ctx) => {
  ctx.bridge = (await testBridge()).bridge;
  const url = `ws://127.0.0.1:${ctx.bridge.port}/ws`;
  const lines = exchangeLines();
  assert.ok(lines.length >= 10, `the example exchange has ${lines.length} messages`);
  for (const who of new Set(lines.map((l) => l.who))) ctx.parties.set(who, await Party.open(url));
  for (const line of lines) {
    const party = ctx.parties.get(line.who)!;
    if (line.dir === '→') {
      const request = JSON.parse(line.text) as { id?: number };
      party.ws.send(JSON.stringify(request));
      // The next line may depend on this one being done (a lock before the call it refuses).
      if (request.id !== undefined) await until(`the answer to ${line.text}`, () => party.texts.some((t) => t.startsWith(`{"jsonrpc":"2.0","id":${request.id},`)), 15_000);
      continue;
    }
    if (line.text.startsWith('(binary) ')) {
      const matches = frameMatcher(line.text.slice('(binary) '.length));
      await until(`${line.who} to get the frame ${line.text}`, () => party.frames.some(matches), 15_000).catch(() => {
        assert.unreachable(`${line.who} never got the frame the doc shows:\n  ${line.text}\ngot:\n  ${party.frames.map((f) => `${f.headerLength} ${f.header} ${f.image.subarray(0, 4).toString('hex')}`).join('\n  ')}`);
      });
      continue;
    }
    const expected = settled(compactJson(line.text));
    await until(`${line.who} to get ${line.text}`, () => party.texts.some((t) => readsAs(expected, t)), 15_000).catch(() => {
      assert.unreachable(`${line.who} never got what the doc shows:\n  ${expected}\ngot:\n  ${party.texts.map(cut).join('\n  ')}`);
    });
  }
  // Every message a party got is in the doc (notifications the doc leaves out mislead client authors).
  for (const [who, party] of ctx.parties) {
    const shown = lines.filter((l) => l.who === who && l.dir === '←' && !l.text.startsWith('(binary) ')).map((l) => settled(compactJson(l.text)));
    const unshown = party.texts.filter((t) => !shown.some((e) => readsAs(e, t)) && !t.includes('"method":"elements.changed"'));
    assert.equal(unshown, [], `${who} got messages the example does not show`);
  }
});

exchange.run();

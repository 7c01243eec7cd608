import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZip } from './zip-writer.js';

/**
 * Builds tiny but valid .apk files for install tests: a zip holding a binary (AXML)
 * AndroidManifest.xml that @devicefarmer/adbkit-apkreader and real tools can parse.
 */
export interface ApkOptions {
  package: string;
  versionName?: string;
  versionCode?: number;
  /** Application label (a plain string, not a resource reference). */
  label?: string;
}

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
/** Resource ids of the framework attributes used below (android.R.attr). */
const ATTR_IDS: Record<string, number> = { versionCode: 0x0101021b, versionName: 0x0101021c, label: 0x01010001, name: 0x01010003 };

const CHUNK = { STRING_POOL: 0x0001, XML: 0x0003, START_NS: 0x0100, END_NS: 0x0101, START_EL: 0x0102, END_EL: 0x0103, RES_MAP: 0x0180 };
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const NO_INDEX = 0xffffffff;

type AttrValue = string | number;
interface XmlElement {
  name: string;
  attrs: { name: string; android: boolean; value: AttrValue }[];
  children: XmlElement[];
}

class StringPool {
  readonly strings: string[] = [];
  index(value: string): number {
    let i = this.strings.indexOf(value);
    if (i < 0) i = this.strings.push(value) - 1;
    return i;
  }
  encode(): Buffer {
    const offsets: number[] = [];
    const bodies: Buffer[] = [];
    let at = 0;
    for (const s of this.strings) {
      offsets.push(at);
      const b = Buffer.alloc(2 + s.length * 2 + 2);
      b.writeUInt16LE(s.length, 0);
      b.write(s, 2, 'utf16le');
      bodies.push(b);
      at += b.length;
    }
    let data = Buffer.concat(bodies);
    if (data.length % 4) data = Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
    const headerSize = 28;
    const header = Buffer.alloc(headerSize + offsets.length * 4);
    header.writeUInt16LE(CHUNK.STRING_POOL, 0);
    header.writeUInt16LE(headerSize, 2);
    header.writeUInt32LE(header.length + data.length, 4);
    header.writeUInt32LE(this.strings.length, 8);
    header.writeUInt32LE(0, 12);
    header.writeUInt32LE(0, 16); // UTF-16, unsorted
    header.writeUInt32LE(header.length, 20);
    header.writeUInt32LE(0, 24);
    offsets.forEach((o, i) => header.writeUInt32LE(o, headerSize + i * 4));
    return Buffer.concat([header, data]);
  }
}

function node(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt16LE(type, 0);
  header.writeUInt16LE(16, 2);
  header.writeUInt32LE(16 + body.length, 4);
  header.writeUInt32LE(1, 8); // line number
  header.writeUInt32LE(NO_INDEX, 12); // comment
  return Buffer.concat([header, body]);
}

/** Encodes an element tree as Android binary XML. */
export function encodeAxml(root: XmlElement): Buffer {
  const pool = new StringPool();
  // Attribute names come first so that the resource map lines up with them by index.
  const attrNames = new Set<string>();
  const collect = (el: XmlElement) => {
    el.attrs.filter((a) => a.android).forEach((a) => attrNames.add(a.name));
    el.children.forEach(collect);
  };
  collect(root);
  for (const name of attrNames) pool.index(name);
  const prefix = pool.index('android');
  const uri = pool.index(ANDROID_NS);

  const body: Buffer[] = [];
  const nsBody = () => {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(prefix, 0);
    b.writeUInt32LE(uri, 4);
    return b;
  };
  body.push(node(CHUNK.START_NS, nsBody()));
  const write = (el: XmlElement) => {
    const ext = Buffer.alloc(20 + el.attrs.length * 20);
    ext.writeUInt32LE(NO_INDEX, 0);
    ext.writeUInt32LE(pool.index(el.name), 4);
    ext.writeUInt16LE(20, 8);
    ext.writeUInt16LE(20, 10);
    ext.writeUInt16LE(el.attrs.length, 12);
    el.attrs.forEach((a, i) => {
      const p = 20 + i * 20;
      ext.writeUInt32LE(a.android ? uri : NO_INDEX, p);
      ext.writeUInt32LE(pool.index(a.name), p + 4);
      const isString = typeof a.value === 'string';
      const valueIndex = isString ? pool.index(a.value as string) : NO_INDEX;
      ext.writeUInt32LE(valueIndex, p + 8);
      ext.writeUInt16LE(8, p + 12);
      ext.writeUInt8(0, p + 14);
      ext.writeUInt8(isString ? TYPE_STRING : TYPE_INT_DEC, p + 15);
      ext.writeUInt32LE(isString ? valueIndex : (a.value as number), p + 16);
    });
    body.push(node(CHUNK.START_EL, ext));
    el.children.forEach(write);
    const end = Buffer.alloc(8);
    end.writeUInt32LE(NO_INDEX, 0);
    end.writeUInt32LE(pool.index(el.name), 4);
    body.push(node(CHUNK.END_EL, end));
  };
  write(root);
  body.push(node(CHUNK.END_NS, nsBody()));

  const resMap = Buffer.alloc(8 + attrNames.size * 4);
  resMap.writeUInt16LE(CHUNK.RES_MAP, 0);
  resMap.writeUInt16LE(8, 2);
  resMap.writeUInt32LE(resMap.length, 4);
  [...attrNames].forEach((n, i) => resMap.writeUInt32LE(ATTR_IDS[n] ?? 0, 8 + i * 4));

  const content = Buffer.concat([pool.encode(), resMap, ...body]);
  const header = Buffer.alloc(8);
  header.writeUInt16LE(CHUNK.XML, 0);
  header.writeUInt16LE(8, 2);
  header.writeUInt32LE(8 + content.length, 4);
  return Buffer.concat([header, content]);
}

export function manifestFor(opts: ApkOptions): XmlElement {
  const launcher: XmlElement = {
    name: 'intent-filter', attrs: [],
    children: [
      { name: 'action', attrs: [{ name: 'name', android: true, value: 'android.intent.action.MAIN' }], children: [] },
      { name: 'category', attrs: [{ name: 'name', android: true, value: 'android.intent.category.LAUNCHER' }], children: [] },
    ],
  };
  return {
    name: 'manifest',
    attrs: [
      { name: 'versionCode', android: true, value: opts.versionCode ?? 1 },
      { name: 'versionName', android: true, value: opts.versionName ?? '1.0' },
      { name: 'package', android: false, value: opts.package },
    ],
    children: [
      {
        name: 'application',
        attrs: [{ name: 'label', android: true, value: opts.label ?? opts.package.split('.').pop() ?? opts.package }],
        children: [{ name: 'activity', attrs: [{ name: 'name', android: true, value: '.MainActivity' }], children: [launcher] }],
      },
    ],
  };
}

export function buildApk(opts: ApkOptions): Buffer {
  return buildZip([
    { name: 'AndroidManifest.xml', data: encodeAxml(manifestFor(opts)) },
    { name: 'classes.dex', data: Buffer.from('dex\n035\0') },
  ]);
}

/** Writes `<dir>/<fileName>` (default `<package>.apk`) and returns its path. */
export function writeApk(dir: string, opts: ApkOptions, fileName = `${opts.package}.apk`): string {
  const path = join(dir, fileName);
  writeFileSync(path, buildApk(opts));
  return path;
}

import { parseHostPort } from '../drivers/android/adb-address.js';
import { withPath } from '../drivers/ios/wda-client.js';

/** One `--adb [name=]host:port` value. */
export interface AdbSourceSpec {
  name: string;
  host: string;
  port: number;
}

/** One `--wda name=url` value: an iPhone whose WebDriverAgent answers over the network. */
export interface WdaSourceSpec {
  name: string;
  url: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/**
 * The built-in drivers' sources, and the adb server found without --adb: a source of that name
 * would list another host's phones as if they were those, and `id@name` could not tell them apart.
 */
const BUILT_IN = ['virtual', 'android', 'ios'];

/** Source names end up in device ids (`serial@name`), so they stay short and shell-safe. */
export function checkSourceName(name: string, flag: string): string {
  if (!NAME.test(name)) {
    throw new Error(`${flag}: source name ${JSON.stringify(name)} must be 1-63 letters, digits, '.', '_' or '-' (it becomes part of device ids such as emulator-5554@${'lab1'})`);
  }
  const taken = flag === '--adb' ? BUILT_IN : [...BUILT_IN, 'local'];
  if (taken.includes(name.toLowerCase())) {
    throw new Error(`${flag}: source name ${JSON.stringify(name)} is already the source of this bridge's own ${name.toLowerCase() === 'local' ? 'adb server' : 'devices'}; give it the name of its host instead, e.g. ${flag} lab1=…`);
  }
  return name;
}

function splitName(value: string): { name?: string; rest: string } {
  // A name never contains ':' or '/', so `name=host:port` and `http://h/?a=b` are told apart.
  const eq = value.indexOf('=');
  if (eq > 0 && !/[:/]/.test(value.slice(0, eq))) return { name: value.slice(0, eq), rest: value.slice(eq + 1) };
  return { rest: value };
}

export function parseAdbSource(value: string): AdbSourceSpec {
  const { name, rest } = splitName(value.trim());
  const { host, port } = parseHostPort(rest, '--adb');
  return { name: checkSourceName(name ?? `${host}:${port}`.replace(/[^A-Za-z0-9._-]/g, '-'), '--adb'), host, port };
}

export function parseWdaSource(value: string): WdaSourceSpec {
  const { name, rest } = splitName(value.trim());
  if (!name) throw new Error(`--wda ${JSON.stringify(value)}: give the iPhone a name, e.g. --wda lab-iphone=http://10.0.0.7:8100 (the name is its device id)`);
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    throw new Error(`--wda ${name}=${rest}: not a URL; pass e.g. ${name}=http://10.0.0.7:8100`);
  }
  if (url.protocol !== 'http:') throw new Error(`--wda ${name}: WebDriverAgent speaks plain http://, got ${url.protocol}//`);
  return { name: checkSourceName(name, '--wda'), url: withPath(url) };
}

/** Source names must be unique: they tell clashing device ids apart. */
export function checkUniqueNames(names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new Error(`two device sources are both named ${JSON.stringify(n)}; name them apart, e.g. --adb lab1=host:5037 --adb lab2=host:5037`);
    seen.add(n);
  }
}

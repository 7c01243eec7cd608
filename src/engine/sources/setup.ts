import { androidSetupFromFlags } from '../drivers/android/setup.js';
import { LazyDriver } from '../drivers/lazy-driver.js';
import { remoteWdaInfo } from './remote-wda-info.js';
import { checkUniqueNames, parseAdbSource, parseWdaSource, type AdbSourceSpec, type WdaSourceSpec } from './source-spec.js';
import { SourceSet, type DeviceSource, type SourceSetOptions } from './source-set.js';

/** The device sources of one engine (SPEC §10). */
export interface SourcesSetup extends SourceSetOptions {
  adb: (AdbSourceSpec & { startServer?: boolean; origin?: string })[];
  wda: WdaSourceSpec[];
}

/** Name of the adb server found without --adb (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT or 5037). */
export const LOCAL_SOURCE = 'local';

const values = (v: string | boolean | undefined): string[] => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : []);

/**
 * `--adb [name=]host:port` (repeatable) and `--wda name=url` (repeatable); without --adb, the local
 * server as adb itself finds it. The CLI's parseFlags joins repeated values with commas.
 */
export function sourcesFromFlags(flags: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv = process.env): SourcesSetup {
  if (flags.wda === true) throw new Error('--wda needs a value: --wda name=http://host:8100');
  const wda = values(flags.wda).map(parseWdaSource);
  let adb: SourcesSetup['adb'] = [];
  // Dropping named adb servers without a word left a user wondering where the lab's phones went.
  if (flags.android === false && values(flags.adb).length) {
    throw new Error(`--no-android turns Android off, so the --adb sources (${values(flags.adb).join(', ')}) would be ignored; leave out --no-android to use them, or --adb to run without Android`);
  }
  if (flags.android !== false) {
    const list = values(flags.adb);
    if (list.length) adb = list.map((v) => ({ ...parseAdbSource(v), startServer: false }));
    else {
      const local = androidSetupFromFlags({ adb: flags.adb }, env);
      if (local) adb = [{ name: LOCAL_SOURCE, host: local.host ?? '127.0.0.1', port: local.port ?? 5037, startServer: local.startServer, origin: local.origin }];
    }
  }
  checkUniqueNames([...adb.map((a) => a.name), ...wda.map((w) => w.name)]);
  return { adb, wda };
}

export function createSourceSet(setup: SourcesSetup): SourceSet {
  const sources: DeviceSource[] = [
    ...setup.adb.map((a) => ({
      name: a.name,
      where: `adb server ${a.host}:${a.port}`,
      driver: new LazyDriver('android', async () => new (await import('../drivers/android/android-driver.js')).AndroidDriver({ host: a.host, port: a.port, startServer: a.startServer ?? false, origin: a.origin, reportUnreachable: true })),
    })),
    ...setup.wda.map((w) => ({
      name: w.name,
      where: `WebDriverAgent ${w.url}`,
      driver: new LazyDriver(`wda:${w.name}`, async () => new (await import('./remote-wda.js')).RemoteWdaDriver(w.name, w.url)),
      expected: [remoteWdaInfo(w.name, null)],
    })),
  ];
  return new SourceSet(sources, setup);
}

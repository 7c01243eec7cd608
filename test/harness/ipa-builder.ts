import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZip } from './zip-writer.js';

/** Builds .ipa archives and .app bundles with an XML Info.plist for iOS install tests. */
export interface IpaOptions {
  bundleId: string;
  name?: string;
  version?: string;
  /** Write a binary-plist header instead of XML (for the "cannot read" error path). */
  binaryPlist?: boolean;
  /** The platform Xcode built it for: CFBundleSupportedPlatforms and DTPlatformName as Xcode writes them (absent: neither key). */
  platform?: 'iPhoneOS' | 'iPhoneSimulator';
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function infoPlist(opts: IpaOptions): Buffer {
  if (opts.binaryPlist) return Buffer.concat([Buffer.from('bplist00'), Buffer.alloc(40)]);
  const name = opts.name ?? opts.bundleId.split('.').pop() ?? opts.bundleId;
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleDevelopmentRegion</key>
	<string>en</string>
	<key>CFBundleExecutable</key>
	<string>${escapeXml(name)}</string>
	<key>CFBundleIdentifier</key>
	<string>${escapeXml(opts.bundleId)}</string>
	<key>CFBundleName</key>
	<string>${escapeXml(name)}</string>
	<key>CFBundleShortVersionString</key>
	<string>${escapeXml(opts.version ?? '1.0')}</string>
	<key>CFBundleVersion</key>
	<string>1</string>
	<key>UIRequiredDeviceCapabilities</key>
	<array>
		<string>arm64</string>
	</array>
	<key>LSRequiresIPhoneOS</key>
	<true/>${opts.platform ? `
	<key>CFBundleSupportedPlatforms</key>
	<array>
		<string>${opts.platform}</string>
	</array>
	<key>DTPlatformName</key>
	<string>${opts.platform.toLowerCase()}</string>` : ''}
</dict>
</plist>
`);
}

export function buildIpa(opts: IpaOptions): Buffer {
  const app = `Payload/${opts.name ?? 'App'}.app`;
  return buildZip([
    { name: `${app}/Info.plist`, data: infoPlist(opts) },
    { name: `${app}/${opts.name ?? 'App'}`, data: Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), deflate: false },
  ]);
}

/** Writes `<dir>/<fileName>` (default `<bundleId>.ipa`) and returns its path. */
export function writeIpa(dir: string, opts: IpaOptions, fileName = `${opts.bundleId}.ipa`): string {
  const path = join(dir, fileName);
  writeFileSync(path, buildIpa(opts));
  return path;
}

/** Writes a `<dir>/<name>.app` bundle folder and returns its path. */
export function writeAppBundle(dir: string, opts: IpaOptions): string {
  const path = join(dir, `${opts.name ?? 'App'}.app`);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'Info.plist'), infoPlist(opts));
  return path;
}

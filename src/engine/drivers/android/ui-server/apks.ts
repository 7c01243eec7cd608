import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { UiServerApks } from './uia2-server.js';

/**
 * The server APKs that the npm package `appium-uiautomator2-server` ships in its apks/ folder
 * (appium-uiautomator2-server-v<version>.apk and appium-uiautomator2-server-debug-androidTest.apk),
 * when that package is installed next to mobilebridge; or from a folder the user names.
 */
export function findUiServerApks(dir?: string): UiServerApks | undefined {
  let folder = dir;
  if (!folder) {
    try {
      folder = path.join(path.dirname(createRequire(import.meta.url).resolve('appium-uiautomator2-server/package.json')), 'apks');
    } catch {
      return undefined;
    }
  }
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return undefined;
  }
  const test = names.find((n) => /androidTest\.apk$/.test(n));
  const server = names.find((n) => /^appium-uiautomator2-server.*\.apk$/.test(n) && n !== test);
  return server && test ? { server: path.join(folder, server), test: path.join(folder, test) } : undefined;
}

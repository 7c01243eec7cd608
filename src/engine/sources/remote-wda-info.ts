import type { DeviceInfo } from '../types.js';

/** What WebDriverAgent's /status tells of the phone (null before it has ever answered). */
export interface WdaStatus {
  os?: { name?: string; version?: string };
  device?: string;
}

/**
 * A `--wda` phone as listed: its id (the flag's name) and platform are known before WebDriverAgent
 * answers, the model and version from its /status. Apart from remote-wda.ts so that the listing
 * of a source that was never reached does not load the iOS driver.
 */
export function remoteWdaInfo(id: string, status: WdaStatus | null): DeviceInfo {
  return { id, os: 'iOS', model: status?.device ? `${status.device} (WebDriverAgent)` : 'iOS device (WebDriverAgent)', version: status?.os?.version ?? '', state: 'ready' };
}

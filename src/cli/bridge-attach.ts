import type { BridgeClient } from '../protocol/client.js';
import { BridgeConnectError, InvalidInputError, tokenFromFlags } from './command.js';
import { bridgeFailureMessage, bridgeUrlProblem } from '../protocol/bridge-problems.js';
import { DEVICE_FLAGS } from './engine-setup.js';

/**
 * The flags that shape devices this process opens (`--reset`, `--no-virtual`, `--adb`, `--timeout`…),
 * given with `--bridge`, where the bridge's own devices and settings apply: a CI job asking for a
 * fresh phone or no virtual one ran on whatever the bridge had, with exit 0 and no word.
 */
export function bridgeIgnoresProblem(flags: Record<string, string | boolean>): string | undefined {
  if (flags.bridge === undefined) return undefined;
  const given = ['reset', ...DEVICE_FLAGS].filter((name) => flags[name] !== undefined).map((name) => (flags[name] === false ? `--no-${name}` : `--${name}`));
  if (!given.length) return undefined;
  const them = given.length === 1 ? 'it' : 'them';
  const devices = given.some((g) => g !== '--reset') ? '; the bridge takes device options when it starts (mobilebridge serve --help)' : '';
  const reset = given.includes('--reset') ? '; for fresh virtual devices there, stop the bridge, run mobilebridge reset on its host and start it again' : '';
  return `with --bridge the bridge's own devices and settings are used, and ${given.join(', ')} would be ignored: leave ${them} out${devices}${reset}`;
}

type Attached<T> = { attached: true; result: T } | { attached: false };

/**
 * With `--bridge URL`, runs `work` against a running bridge instead of opening devices
 * in this process, so the CLI sees the same phones (and shows up in the viewer's feed).
 */
export async function withBridge<T>(flags: Record<string, string | boolean>, work: (client: BridgeClient) => Promise<T>): Promise<Attached<T>> {
  if (flags.bridge === undefined) return { attached: false };
  if (typeof flags.bridge !== 'string') throw new InvalidInputError('--bridge needs the WebSocket URL of a running bridge, e.g. --bridge ws://127.0.0.1:4800/ws');
  const urlProblem = bridgeUrlProblem(flags.bridge) ?? bridgeIgnoresProblem(flags);
  if (urlProblem) throw new InvalidInputError(urlProblem);
  const token = tokenFromFlags(flags);
  // The WebSocket client only when a bridge is named: most commands run without one.
  const { connectBridge } = await import('../protocol/node.js');
  let client: BridgeClient;
  try {
    client = await connectBridge(flags.bridge, { token, client: 'mobilebridge-cli', reconnect: false });
  } catch (err) {
    throw new BridgeConnectError(bridgeFailureMessage(flags.bridge, err, token !== undefined));
  }
  try {
    return { attached: true, result: await work(client) };
  } finally {
    await client.close();
  }
}

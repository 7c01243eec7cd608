import type { BridgeClient } from '../protocol/client.js';
import { BridgeConnectError, InvalidInputError, tokenFromFlags } from './command.js';
import { bridgeFailureMessage, bridgeUrlProblem } from '../protocol/bridge-problems.js';

type Attached<T> = { attached: true; result: T } | { attached: false };

/**
 * With `--bridge URL`, runs `work` against a running bridge instead of opening devices
 * in this process, so the CLI sees the same phones (and shows up in the viewer's feed).
 */
export async function withBridge<T>(flags: Record<string, string | boolean>, work: (client: BridgeClient) => Promise<T>): Promise<Attached<T>> {
  if (flags.bridge === undefined) return { attached: false };
  if (typeof flags.bridge !== 'string') throw new InvalidInputError('--bridge needs the WebSocket URL of a running bridge, e.g. --bridge ws://127.0.0.1:4800/ws');
  const urlProblem = bridgeUrlProblem(flags.bridge);
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

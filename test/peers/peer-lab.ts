import type { Bridge } from '../../src/bridge/index.js';
import type { BridgeClient } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';

/** Two peer bridges behind an aggregator, and the clients a test opened on the aggregator. */
export interface PeerLab {
  a: Bridge;
  b: Bridge;
  agg: Bridge;
  clients: BridgeClient[];
}

/** A client of the aggregator, closed with the lab. */
export async function labClient(l: PeerLab, name: string): Promise<BridgeClient> {
  const c = await connectBridge(l.agg.wsUrl, { client: name });
  l.clients.push(c);
  return c;
}

/** Clients first, then the aggregator, then its peers. */
export async function closePeerLab(l: PeerLab | undefined): Promise<void> {
  if (!l) return;
  await Promise.all(l.clients.map((c) => c.close()));
  await l.agg.close();
  await Promise.all([l.a.close(), l.b.close()]);
}

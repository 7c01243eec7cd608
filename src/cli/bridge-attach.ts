import WebSocket from 'ws';

export interface BridgeToolClient {
  callTool(tool: string, parameters: unknown): Promise<unknown>;
}

type Attached = { attached: true; result: unknown } | { attached: false };

/**
 * With `--bridge URL`, runs `work` against a running bridge instead of opening devices
 * in this process, so the CLI sees the same phones (and shows up in the viewer's feed).
 */
export async function withBridge(
  flags: Record<string, string | boolean>,
  work: (client: BridgeToolClient) => Promise<unknown>,
): Promise<Attached> {
  if (typeof flags.bridge !== 'string') return { attached: false };
  const token = typeof flags.token === 'string' ? flags.token : process.env.MOBILEBRIDGE_TOKEN;
  const client = await connect(flags.bridge, token);
  try {
    return { attached: true, result: await work(client) };
  } finally {
    client.close();
  }
}

async function connect(url: string, token: string | undefined): Promise<BridgeToolClient & { close(): void }> {
  const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (err) => reject(new Error(`cannot reach the bridge at ${url}: ${err.message}; start it with 'mobilebridge serve'`)));
  });
  let nextId = 1;
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (data: WebSocket.RawData, binary: boolean) => {
        if (binary) return;
        const msg = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
        if (msg.id !== id) return;
        ws.off('message', onMessage);
        if (msg.error) reject(new Error(`bridge refused ${method}: ${msg.error.message}`));
        else resolve(msg.result);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  await request('session.hello', { client: 'mobilebridge-cli' });
  return {
    callTool: (tool, parameters) => request('tools.call', { tool, parameters }),
    close: () => ws.close(1000, 'cli done'),
  };
}

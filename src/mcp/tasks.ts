import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP 2025-11-25 tasks: a receiver that does not declare the tasks capability for a request type
 * MUST process such requests normally, ignoring task augmentation. The SDK instead refuses a
 * tools/call carrying `params.task` (-32603 "Server does not support task creation"), so the field
 * is dropped as each message arrives, before the SDK looks at it. This server declares no tasks.
 */
export function ignoreTaskAugmentation(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => deliver?.(withoutTask(message), extra);
  };
}

function withoutTask(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || !('id' in message) || !message.params || !('task' in message.params)) return message;
  const { task: _ignored, ...params } = message.params;
  return { ...message, params };
}

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, RequestSchema, type CallToolRequest, type ListToolsRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a request handler besides the request (signal, _meta, sendNotification). */
export type RequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];
type Schemas = { 'tools/call': [typeof CallToolRequestSchema, CallToolRequest]; 'tools/list': [typeof ListToolsRequestSchema, ListToolsRequest] };
const SCHEMAS = { 'tools/call': CallToolRequestSchema, 'tools/list': ListToolsRequestSchema } as const;

/**
 * Registers a handler whose request params that do not fit the method's schema (tools/call
 * without a name, arguments that are not an object, a cursor that is not a string) are answered
 * -32602 Invalid params, as JSON-RPC and MCP ask. The SDK checks params before the handler runs
 * and answers a mismatch -32603 Internal error, which tells a client the server broke; so the
 * method is registered with the SDK's loose request schema and checked here.
 */
export function onRequest<M extends keyof Schemas>(server: Server, method: M, handler: (request: Schemas[M][1], extra: RequestExtra) => Promise<Record<string, unknown>>): void {
  const schema = SCHEMAS[method];
  const loose = RequestSchema.extend({ method: schema.shape.method });
  // The SDK's Server wraps a tools/call handler in its own check of the request, which answers a
  // mismatch with a pretty-printed Zod dump behind a doubled "MCP error -32602:", and in a check of
  // every result against its schema (a parse of each screenshot and listing on every call). The
  // request is checked here, and the results are built to the schema (the SDK client's own check
  // in the tests holds them to it), so the handler goes to the Protocol base that Server extends.
  const register: Server['setRequestHandler'] = method === 'tools/call' ? Object.getPrototypeOf(Object.getPrototypeOf(server)).setRequestHandler : server.setRequestHandler;
  register.call(server, loose, async (request, extra) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      const shape = method === 'tools/call' ? '; send {"name": "<tool>", "arguments": {…}} (tools/list lists the tools)' : '';
      throw new InvalidParams(`invalid ${method} request: ${issues}${shape}`);
    }
    return handler(parsed.data as Schemas[M][1], extra);
  });
}

/**
 * A JSON-RPC -32602 answer: the SDK sends an error's `code` and `message` as they are. Not the
 * SDK's McpError, whose message repeats "MCP error -32602:" in front of what the client shows.
 * Thrown for a tool name the server does not offer (MCP tools, "Error Handling": a protocol error,
 * not a tool result) and a cursor it never issued (MCP pagination).
 */
export class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;
}

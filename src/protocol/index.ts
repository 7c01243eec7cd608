/**
 * The bridge protocol, browser-safe: message schemas and types, the binary frame codec and the
 * transport-agnostic client. Node code that wants a ready `ws` connection imports `./node.js`.
 */
export * from './jsonrpc.js';
export * from './methods.js';
export * from './notifications.js';
export * from './screen-formats.js';
export * from './frame.js';
export * from './client.js';

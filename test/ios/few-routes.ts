/*
 * A WebDriverAgent that answers only the routes mobile-mcp uses (an older build, or an emulation of WDA written
 * from its sources for a few clients); every other route gets WDA's "unknown command" (FBUnknownCommands.m).
 */
export const FEW_ROUTES = [
  'GET /status', 'POST /session', 'DELETE /session/:id', 'GET /source', 'GET /screenshot', 'GET /window/size', 'GET /orientation',
  'POST /orientation', 'POST /actions', 'POST /wda/keys', 'POST /wda/pressButton', 'GET /wda/screen', 'POST /url',
  'POST /wda/apps/launch', 'POST /wda/apps/terminate',
];

/**
 * PERMISSION_DENIED has several causes that need different next steps: a bridge lock held by
 * someone else, a finger down in the viewer, a path outside the allowed folders, or the device
 * itself refusing. A bridge's lock refusal also names protocol methods (devices.lock, verbs.run)
 * that an MCP agent has no tool for, so it is put in terms of what the agent can do.
 */

const LOOKING_TOOLS = 'tools that only look (list_elements, take_screenshot, read_text, assert, wait_for)';

/** The bridge's lock refusal (src/bridge/locks.ts) as "<what> refused: device X is locked by …; read-only tools still work; <remedy>". */
const LOCKED = /^[^\n]*? refused: (device \S+ is locked by [^\n]*?); read-only tools still work; [^\n]*/;

export function lockInAgentTerms(message: string): string {
  return message.replace(LOCKED, (_all, held: string) => {
    const who = held.replace(' (devices.lock or devices.lease)', '');
    const remedy = /for its scenario run/.test(held)
      ? 'wait for the run to end (its lock goes with it) and call the tool again, or ask the user to stop the run'
      : /a person controlling it in the viewer/.test(held)
        ? 'ask the user to press Release in the viewer (or close the page), or wait and call the tool again'
        : 'wait until that client unlocks the device or disconnects and call the tool again, or ask the user to stop it';
    return `refused: ${who}; ${LOOKING_TOOLS} still work; ${remedy}`;
  });
}

/** What to do next after a PERMISSION_DENIED, by its cause. */
export function permissionNext(message: string): string {
  if (/ is locked by /.test(message)) {
    return `A person or another program controls this device. Ask the user to release it (Release in the viewer), or wait and call the tool again; ${LOOKING_TOOLS} still work meanwhile.`;
  }
  if (/has a finger down on /.test(message)) return 'Someone is touching this screen right now (in the viewer). Wait a moment, then call the tool again.';
  if (/ is outside the allowed folders/.test(message)) return 'Use a path under the working or temp directory, or ask the user to start mobilebridge with --allow-path FOLDER.';
  return 'The device or its system refused this. Do what the message says, or ask the user to do it on the device.';
}

import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * Tool annotations (MCP tools/list): hints clients use to decide which calls need the user's
 * approval and which may run side by side. A tool is read-only only when it changes nothing on
 * the device or on disk; everything that touches the screen may delete or send something in the
 * app in front, so it is marked destructive (the spec's own default, said out loud so a client
 * showing the hints does not guess).
 */
const READ_ONLY = new Set([
  'list_devices',
  'list_apps',
  'list_elements',
  'take_screenshot',
  'wait_for',
  'read_text',
  'mobile_list_available_devices',
  'mobile_list_apps',
  'mobile_get_foreground_app',
  'mobile_take_screenshot',
  'mobile_list_elements_on_screen',
  'mobile_get_screen_size',
  'mobile_get_orientation',
]);

/**
 * Tools that change nothing on the device but may write a file of their own: assert's
 * screenshot_match records a missing baseline in a temp folder.
 */
const WRITES_OWN_FILES = new Set(['assert']);

/** Acting tools that give the same end state when repeated with the same arguments. */
const IDEMPOTENT = new Set(['clear_app_data', 'mobile_clear_app_data', 'mobile_set_orientation', 'mobile_set_wifi', 'mobile_uninstall_app', 'mobile_terminate_app']);

export function annotationsFor(name: string): ToolAnnotations {
  // What a client shows a person instead of the name: "Take screenshot", "Mobile list apps".
  const words = name.replace(/_/g, ' ');
  const title = words[0].toUpperCase() + words.slice(1);
  if (READ_ONLY.has(name)) return { title, readOnlyHint: true };
  if (WRITES_OWN_FILES.has(name)) return { title, readOnlyHint: false, destructiveHint: false, idempotentHint: false };
  return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: IDEMPOTENT.has(name) };
}

import { TOOLS } from '../engine/tools/index.js';
/**
 * Engine messages name the raw mobile_* tools. An MCP agent without --engine-tools has the
 * verbs and session tools instead, so hints are rewritten into the tools it can call.
 */
const OWN_NAME: Record<string, string> = {
  mobile_list_available_devices: 'list_devices',
  mobile_list_elements_on_screen: 'list_elements',
  mobile_list_apps: 'list_apps',
  mobile_take_screenshot: 'take_screenshot',
  mobile_launch_app: 'launch_app',
  mobile_open_url: 'open_url',
  mobile_click_on_screen_at_coordinates: 'tap',
  mobile_double_tap_on_screen: 'double_tap',
  mobile_long_press_on_screen_at_coordinates: 'long_press',
  mobile_type_keys: 'type_text',
  mobile_swipe_on_screen: 'swipe',
  mobile_scroll_to_element: 'scroll_to',
  mobile_press_button: 'press_button',
  mobile_clear_app_data: 'clear_app_data',
  mobile_pinch_on_screen: 'pinch',
};

/** The engine's tool names (SPEC §1 and the project's additions). */
const ENGINE_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

/** The tool an agent without --engine-tools calls instead of a raw mobile_* tool, if there is one. */
export const ownToolName = (raw: string): string | undefined => OWN_NAME[raw];

/**
 * A raw tool name standing as a word of its own: not inside a package id (com.example.mobile_banking),
 * an address (mobile_user@example.com) or a longer name, which messages quote from the screen or the caller.
 */
const RAW_TOOL = /(?<![\w.@/-])mobile_[a-z_]+(?![\w@/-]|\.\w)/g;

/**
 * The message with every raw tool name the agent lacks replaced by its own tool, or marked as unavailable.
 * Only names of tools the engine has are touched, and a JSON document a message carries
 * (recording_stop's scenario after a refused save) is left as it is.
 */
export function inAgentTerms(message: string, engineTools: boolean): string {
  if (engineTools) return message;
  const json = message.search(/\n[[{]/);
  const prose = json < 0 ? message : message.slice(0, json);
  const rewritten = prose.replace(RAW_TOOL, (name) => {
    if (!ENGINE_NAMES.has(name)) return name;
    return ownToolName(name) ?? `${name} (not offered here: start the server with --engine-tools, or run \`mobilebridge call ${name}\`)`;
  });
  return json < 0 ? rewritten : rewritten + message.slice(json);
}

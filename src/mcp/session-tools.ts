import { APP_STATES, ASSERTION_TYPES, CURRENT_SCHEMA_VERSION, ELEMENT_STATES, OPERATORS, THEMES, VISUAL_STATES } from '../validate/index.js';
import { MAX_PINCH_SCALE, MIN_PINCH_SCALE } from '../engine/pinch-bounds.js';
import { DEVICE_PROPERTY, type VerbTool } from './verb-tools.js';

/**
 * The MCP tools besides the verbs: looking at devices and screens, assertions and recording.
 * Their handlers live in server.ts; here are the names, schemas and model-facing descriptions.
 */

export type ToolSpec = Omit<VerbTool, 'toStep' | 'oneRequired'>;

const device = { device: DEVICE_PROPERTY };
const obj = (properties: Record<string, unknown>, required: string[] = []): ToolSpec['inputSchema'] => ({ type: 'object', properties, required, additionalProperties: false });

const ASSERT_FIELDS =
  'Fields per type: element_exists / element_not_exists / element_fully_visible / text_not_empty / text_changed / list_is_empty: element_description. ' +
  'element_visible: element_description, expected_visible. element_state: element_description, state_property. element_text: element_description, expected_value. ' +
  'text_contains: expected_substring, element_description optional. pattern_match: pattern, element_description optional. element_hint: element_description, expected_text. ' +
  'content_description: element_description, label_value. has_accessibility_label: element_description, label_value optional. element_count / list_item_count: element_description, operator, expected_count. ' +
  'value_matches_variable: element_description, variable_name. screenshot_match: reference_screenshot (relative path), tolerance. visual_state: expected_visual_state. color_style: element_description, color_hex. ' +
  'screen_title / alert_text / toast_visible: expected_text. alert_present: nothing. keyboard_visible: expected_visible. permission_dialog_shown: permission_name optional. dark_mode_active: expected_theme.';

/** How an agent's screenshot is scaled and encoded: take_screenshot's and, under MCP, mobile_take_screenshot's. */
export const SCREENSHOT_OPTIONS = {
  format: { type: 'string', enum: ['jpeg', 'png'], description: 'jpeg (default, small) or png (lossless, larger).' },
  max_size: { type: 'integer', minimum: 160, maximum: 4096, description: 'Longest side of the image in pixels (default 1280, or half the screen when that is at least 90 % of it: 540×1200 for 1080×2400); at most 2000, which larger values mean (Claude refuses bigger images in conversations with many of them); it may come out smaller to fit the size budget.' },
};

export const SESSION_TOOLS: ToolSpec[] = [
  {
    name: 'list_devices',
    description: 'List the connected devices (Android, iOS, and the built-in virtual phones): {devices: [{id, os, model, version, state}], notes?: [why a source, e.g. an adb server, did not answer]}. Call it first; every other tool takes one of these ids as "device".',
    inputSchema: obj({}),
  },
  {
    name: 'list_apps',
    description: 'List the launchable apps on a device: {apps: [{package, name, version, labelUnknown?}]} (labelUnknown: true when the device does not tell the label; name is then the package id). Use a package with launch_app. Errors: DEVICE_NOT_FOUND.',
    inputSchema: obj(device, ['device']),
  },
  {
    name: 'list_elements',
    description:
      'List the interactive and text elements on screen now, compactly: {screen, total, offset, elements: [{id, type, text?, label?, hint?, center: [x, y], size: [w, h], enabled?: false, checked?, selected?, focused?}], next_offset?, note?} in device pixels. ' +
      'Cheaper and more exact than a screenshot for finding what to tap: describe an element to the verbs by its text or label. Huge screens come in pages (limit, default 300; a page also stops before 50,000 characters, texts over 500 characters are cut, ending in …, and read_text gives a whole text): pass next_offset as offset and the screen value you got, to be told when the screen changed between pages; an offset past the last element gives no elements and a note with the offset to use. full: true gives the complete element objects instead, unpaged (not with limit, offset or screen; on a big screen it may pass the result size limit of your client). Errors: DEVICE_NOT_FOUND, TIMEOUT.',
    inputSchema: obj(
      {
        ...device,
        limit: { type: 'integer', minimum: 1, maximum: 2000, description: 'Elements per page (default 300).' },
        offset: { type: 'integer', minimum: 0, description: 'First element of the page: the next_offset of the previous page.' },
        screen: { type: 'string', description: 'The screen value of the previous page, to detect a change between pages.' },
        full: { type: 'boolean', description: 'true: every field of every element ({elements: [{id, text, type, accessibility_label, x, y, width, height, visible, enabled, center, …}]}, the engine\'s own listing), no paging (so not with limit, offset or screen), and no size cap: on a busy screen it can pass a client\'s limit on tool output.' },
      },
      ['device'],
    ),
  },
  {
    name: 'pinch',
    description:
      'Two-finger pinch on the element described by "target" (a map, a photo, a document): scale > 1 spreads the fingers (zoom in; 2 doubles their distance), < 1 brings them together (zoom out). ' +
      'Look again afterwards (take_screenshot or list_elements) to see what the app did. A running recording does not keep it (scenarios have no pinch step; recording_stop lists it as skipped). Errors: ELEMENT_NOT_FOUND (candidates listed), UNSUPPORTED when the device cannot do two-finger gestures.',
    inputSchema: obj(
      {
        ...device,
        target: { type: 'string', minLength: 1, description: 'The element to pinch on, as a user would name it, e.g. "the map" or "the product photo".' },
        scale: { type: 'number', minimum: MIN_PINCH_SCALE, maximum: MAX_PINCH_SCALE, description: '> 1 zooms in, < 1 zooms out (not 1).' },
      },
      ['device', 'target', 'scale'],
    ),
  },
  {
    name: 'take_screenshot',
    description:
      'See the screen: returns an image (JPEG by default, scaled so it stays well under 1 MB) and a text part with the image size, the device size and the factor that maps image pixels to device pixels (device_x = image_x × factor). Use it to check how things look; use list_elements to find things. Errors: DEVICE_NOT_FOUND, TIMEOUT.',
    inputSchema: obj({ ...device, ...SCREENSHOT_OPTIONS }, ['device']),
  },
  {
    name: 'assert',
    description:
      `Check something about the screen now, mechanically, with the same 27 checks a scenario uses (it looks again for up to 1 s while the screen settles, or until timeout_ms when given). Returns {status: passed|failed, expected, actual, message}; a failed check is a normal result, not an error; a check that could not be made (status error: an invalid pattern, an undeclared variable, a device that did not answer) comes back as the same object in an error result. While recording, a passed check is kept as a scenario assertion after the last step. ${ASSERT_FIELDS} ` +
      'Errors: INVALID_PARAMETER (a missing or wrong field, named), DEVICE_NOT_FOUND.',
    inputSchema: obj(
      {
        ...device,
        type: { type: 'string', enum: [...ASSERTION_TYPES], description: 'The check; the fields each one needs are in the tool description.' },
        description: { type: 'string', description: 'What the check means, e.g. "the user is signed in" (kept in the recording).' },
        element_description: { type: 'string', description: 'The element, described like a verb target: "the Items list", "the error message".' },
        expected_visible: { type: 'boolean' },
        state_property: { type: 'string', enum: [...ELEMENT_STATES] },
        expected_value: { type: 'string' },
        expected_substring: { type: 'string' },
        expected_text: { type: 'string' },
        pattern: { type: 'string', description: 'Regular expression.' },
        label_value: { type: 'string' },
        operator: { type: 'string', enum: [...OPERATORS] },
        expected_count: { type: 'integer', minimum: 0 },
        variable_name: { type: 'string' },
        reference_screenshot: { type: 'string' },
        tolerance: { type: 'number', minimum: 0, maximum: 1 },
        expected_visual_state: { type: 'string', enum: [...VISUAL_STATES] },
        color_hex: { type: 'string', description: '#RGB or #RRGGBB' },
        permission_name: { type: 'string' },
        expected_theme: { type: 'string', enum: [...THEMES] },
        timeout_ms: { type: 'integer', minimum: 0, maximum: 60000, description: 'Check again until it passes or this time is up (SPEC 2.2 waiting assertion; kept in a recording). Without it the check looks again for up to 1 s. Over 45000 may outlast a client that gives up on a call after 60 s.' },
        condition: { type: 'object', description: 'Only check when this condition holds, else the status is skipped (a scenario step condition, e.g. {"type": "device_property", "property": "platform", "value": "android"}; kept in a recording).' },
      },
      ['device', 'type'],
    ),
  },
  {
    name: 'recording_start',
    description:
      'Start recording what you do on a device into a replayable scenario. From now on every verb that succeeds is kept as a step with its semantic target (never coordinates), wait_for calls become wait steps, and passed assert calls become assertions. With app_state "logged_out" or "fresh_install" the app data is cleared now (and again before each replay) so the recording and its replays start alike; where that cannot be done (iOS) the call fails with UNSUPPORTED and nothing is recorded: sign out by hand, then start without app_state. A flow that answers a permission prompt needs fresh_install: the app shows the prompt only until it is answered, so a replay on the same device would find none (the validation recording_stop answers warns, permission-prompt-once, saying what to add). Returns {recording: {device, name, steps: 0}}. Errors: INVALID_PARAMETER (already recording on this device; app_state without app_package), APP_NOT_INSTALLED, UNSUPPORTED.',
    inputSchema: obj(
      {
        ...device,
        name: { type: 'string', minLength: 1, description: 'Scenario name, e.g. "Sign in with valid credentials"; the scenario id is derived from it.' },
        description: { type: 'string', description: 'What the scenario checks, in a sentence (kept in the scenario).' },
        app_package: { type: 'string', description: 'The app under test (else the first launched app, else the app in front at stop).' },
        app_state: { type: 'string', enum: [...APP_STATES], description: 'The app state every replay starts from; logged_out and fresh_install clear the app data now (needs app_package).' },
      },
      ['device', 'name'],
    ),
  },
  {
    name: 'recording_stop',
    description:
      `Stop the recording on a device and get the scenario document (schema ${CURRENT_SCHEMA_VERSION} JSON) with its validation report. With save_to it is also written as a file (under the working or temp directory) that \`mobilebridge run FILE --device ID\` replays. Errors: INVALID_PARAMETER (no recording on that device, nothing succeeded while recording, save_to not a .json name, or a file already there without overwrite: true), PERMISSION_DENIED (save_to outside the allowed folders). When the file is refused the recording is still stopped: the error carries the scenario, and recording_stop again (with another save_to) answers it again.`,
    inputSchema: obj(
      {
        ...device,
        save_to: { type: 'string', minLength: 1, description: 'Optional path of the .json file to write, e.g. ./scenarios/sign_in.json. An existing file is not replaced unless overwrite is true.' },
        overwrite: { type: 'boolean', description: 'true: replace the file at save_to if there is one (default false: refused, the file is left as it is).' },
      },
      ['device'],
    ),
  },
];

/**
 * The stable rule ids. Users filter on them in CI and the docs table is generated from the same
 * list (see docs/validation.md), so ids never change meaning once published.
 */
export type Severity = 'error' | 'warning';

export const RULES = {
  // Reading the file
  'empty-file': ['error', 'The file has no content.'],
  'json-syntax': ['error', 'The file is not valid JSON; reported at the position of the syntax error.'],
  'json-too-deep': ['error', 'Objects/arrays nested deeper than 512 levels.'],
  'duplicate-key': ['error', 'The same property appears twice in one object (JSON.parse would silently keep the last).'],
  'root-not-object': ['error', 'The document is not a JSON object (e.g. an array or a string).'],
  'file-unreadable': ['error', 'The CLI could not read the file (missing, a directory, no permission). Exit code 1.'],
  // Shape (schema)
  'schema-version': ['error', '`$schema_version` is missing or not "2.0" / "2.1" / "2.2".'],
  'required-field': ['error', 'A required property is missing.'],
  'assertion-field-required': ['error', 'A property the assertion type needs is missing (e.g. `expected_value` for `element_text`).'],
  'unknown-property': ['error', 'A property the schema does not define (typos are caught this way); `x-` keys are allowed.'],
  'field-not-for-type': ['error', 'A property that exists, but not for this assertion or condition type.'],
  'type-mismatch': ['error', 'A value has the wrong JSON type (e.g. a number where a string is expected).'],
  'empty-string': ['error', 'A required text is empty.'],
  'id-format': ['error', '`scenario_id`, step ids, assertion ids and step references must be snake_case: ^[a-z][a-z0-9_]*$.'],
  'platform-invalid': ['error', '`platform` is not android, ios or cross-platform.'],
  'unknown-action': ['error', '`action` is not one of the 18 actions.'],
  'unknown-assertion-type': ['error', 'Assertion `type` is not one of the 27 types.'],
  'unknown-condition-type': ['error', '`condition.type` is not one of the 4 condition types.'],
  'enum-value': ['error', 'A value outside its allowed list (on_failure, wait_config.type, operator, app_state, ...).'],
  'not-integer': ['error', 'A number that must be whole is not.'],
  'out-of-range': ['error', 'A number outside its bounds (timeout_ms 1000..60000, max_attempts 2..5, tolerance 0..1, ...).'],
  'steps-empty': ['error', '`steps` (or a `sub_steps` list) is empty.'],
  'tag-format': ['error', 'A tag does not match ^[a-z0-9][a-z0-9-]*$ or is longer than 20 characters.'],
  'tags-too-many': ['error', 'More than 10 tags.'],
  'variable-name-format': ['error', 'A variable name is not an identifier (^[A-Za-z_][A-Za-z0-9_]*$).'],
  'parameter-name-format': ['error', 'A parameter name is not upper case (^[A-Z][A-Z0-9_]*$).'],
  'color-hex': ['error', '`color_hex` is not #RGB or #RRGGBB.'],
  // Versions and modes
  'mode-requires-2.1': ['error', '`mode` is used in a `2.0` scenario; it exists from 2.1.'],
  'requires-2.2': ['error', 'A 2.2 field (parameters, clear_first, flow, an assertion\'s timeout_ms or condition) in a 2.0 / 2.1 scenario.'],
  'action-requires-agnostic-mode': ['error', 'press_back, dismiss_keyboard, grant_permission, deny_permission need `mode: platform-agnostic` (2.1).'],
  // Identity and references
  'step-id-duplicate': ['error', 'Two steps share an id (ids are unique across all nesting levels).'],
  'assertion-id-duplicate': ['error', 'Two assertions share an id.'],
  'scenario-id-duplicate': ['error', 'Two files validated (or run) together share a `scenario_id`.'],
  'after-step-unknown': ['error', '`after_step` names no step (any step id, nested or not, is allowed).'],
  'condition-step-unknown': ['error', '`previous_step_skipped.step_id` names no step.'],
  'condition-step-not-earlier': ['error', '`previous_step_skipped.step_id` names a step that has not run yet (itself, a later step or an enclosing step; for an assertion, one that has not run when it is checked).'],
  'variable-undeclared': ['error', 'A `${name}` reference, condition or assertion uses a name declared neither in `variables` nor in `parameters`.'],
  'variable-syntax': ['error', 'A malformed `${...}` reference (write `$${` for a literal `${`).'],
  'variable-unused': ['warning', 'A declared variable is never captured nor referenced.'],
  'parameter-unused': ['warning', 'A declared parameter is never referenced.'],
  'precondition-variable': ['error', 'A precondition `value` or `target_package` references a variable: preconditions run before the first step, so only parameters have values there.'],
  'parameter-shadows-variable': ['error', 'A name declared both as a parameter and as a variable, in the scenario or across it and its flows, so `${NAME}` would be ambiguous.'],
  'secret-default': ['warning', 'A secret parameter has a `default`: the secret is then in the file for anyone who reads it.'],
  'secret-in-path': ['error', 'A `reference_screenshot` references a secret parameter: its value would become the name of the baseline file.'],
  'secret-literal': ['warning', 'A flow step passes a value written in the file to a secret parameter of the flow: the secret is then in the file for anyone who reads it.'],
  'flow-missing': ['error', 'A `flow` step names a file that does not exist.'],
  'flow-invalid': ['error', 'The scenario a `flow` step names does not validate (its first errors are quoted).'],
  'flow-cycle': ['error', 'Flows that include each other (a → b → a).'],
  'flow-too-large': ['error', 'With its flows expanded (each use copies the flow\'s steps) the scenario is more than 10,000 steps: flows used several times inside flows used several times multiply.'],
  'flow-parameter-unknown': ['error', 'A flow step passes a parameter the flow does not declare.'],
  'flow-not-checked': ['warning', 'A `flow` step of a scenario validated without its folder (POST /api/validate, scenarios.validate): the flow file could not be checked.'],
  'path-escapes-scenario': ['error', '`flow` or `reference_screenshot` leaves the scenario\'s folder (`..`, an absolute path, a URL, or a symlink out of it).'],
  'capture-to-wrong-action': ['error', '`capture_to` on a step whose action is not capture_value.'],
  'capture-to-missing': ['error', 'A capture_value step without `capture_to`.'],
  'capture-to-undeclared': ['error', '`capture_to` names a variable not declared in `variables` (a parameter is given at run time and cannot be captured into).'],
  // Per-action requirements
  'target-required': ['error', 'tap, long_press, double_tap, scroll_to_element, wait_for_element(_gone), capture_value need `target` or `target_pattern`.'],
  'value-required': ['error', '`type` and `open_url` need `value`.'],
  'swipe-direction': ['error', '`swipe` needs `value` up, down, left or right.'],
  'press-button-value': ['error', '`press_button` needs `value` BACK, HOME or ENTER.'],
  'press-button-back-ios': ['error', '`press_button` BACK in an ios scenario, or in a flow an ios scenario uses (iOS has no back button).'],
  'url-invalid': ['error', '`open_url` value is not a URL or deep link (scheme:...).'],
  'wait-config-required': ['error', 'A wait_for_* action without `wait_config`.'],
  'wait-config-type': ['error', '`wait_config.type` does not match the wait action.'],
  'wait-indicator': ['error', '`wait_config.indicator` is only for type loading_complete.'],
  'wait-config-unused': ['warning', '`wait_config` on an action that does not wait; it is ignored.'],
  'retry-policy-ignored': ['warning', '`retry_policy` without `on_failure: retry`; it is ignored.'],
  'field-unused': ['warning', 'A step or precondition property the action does not use (e.g. `target` on launch_app, `clear_first` on tap, `target_package` on enable_wifi), or the preconditions of a file another file validated with it uses as a flow; it is ignored.'],
  'regex-invalid': ['error', '`target_pattern` or `pattern` is not a valid regular expression.'],
  'condition-value': ['error', 'A condition `value` or `operator` that can never compare as meant: text that is no number for a numeric property or variable ("latest" for api_level), a value a property never has ("windows"), an ordering operator between words. Quoted numbers ("33"), any letter case ("Android") and "true"/"false" are compared as the runner compares them, so they are fine.'],
  'target-is-locator': ['error', 'A target or element_description that is a locator (resource-id, XPath, XCUIElementType, class name, selector, coordinates) instead of a description.'],
  'app-package-invalid': ['error', '`app_package`, a launch_app / clear_app_data `value` or a precondition `target_package` is not a valid package name / bundle id for the platform.'],
  'app-package-one-platform': ['warning', 'cross-platform `app_package` valid for only one of Android / iOS.'],
  'device-action-value': ['error', 'A precondition device action misses the value it needs (set_orientation, install_app).'],
  'reference-screenshot-missing': ['warning', '`reference_screenshot` file does not exist yet; the first run records it as the baseline.'],
  'unattended-replay': ['warning', 'A step or precondition that cannot replay unattended on the platform (clear_app_data, enable_wifi, disable_wifi on ios; press_button BACK in a cross-platform scenario), also in a flow the scenario uses.'],
  'permission-prompt-once': ['warning', 'A grant_permission / deny_permission step (without a condition, optional or on_failure skip) in a scenario whose preconditions do not reset the app (app_state fresh_install / logged_out, clear_app_data or uninstall_app of it): an app shows a permission prompt only until it is answered, so a second run on the same device finds none (not said of a flow of another file validated with it; the scenario using a flow that answers one is warned on its flow step).'],
  'no-assertions': ['warning', '`assertions` is empty: the scenario checks nothing (not said of a flow of another file validated with it).'],
  'tag-duplicate': ['warning', 'The same tag is listed twice.'],
} as const satisfies Record<string, readonly [Severity, string]>;

export type RuleId = keyof typeof RULES;

export function severityOf(rule: RuleId): Severity {
  return RULES[rule][0];
}

/** One reported problem. `path` is a JSON Pointer; line/column are 1-based positions in the file. */
export interface ValidationIssue {
  path: string;
  line: number;
  column: number;
  rule: RuleId;
  message: string;
  suggestion?: string;
}

/**
 * Messages say what is wrong and then, after their last "; ", what to do. That last part is the
 * issue's `suggestion` when the rule has nothing more concrete (a replacement value, a name), so
 * every issue tells a reader or an agent how to fix it (SPEC §4).
 */
export function remedyOf(message: string): string | undefined {
  const cut = message.lastIndexOf('; ');
  return cut < 0 ? undefined : message.slice(cut + 2);
}

/** A problem before positions are resolved: `atKey` places it on the property name, not the value. */
export interface RawIssue {
  path: string;
  rule: RuleId;
  message: string;
  suggestion?: string;
  atKey?: boolean;
}

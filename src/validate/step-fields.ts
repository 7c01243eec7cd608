/**
 * A step's (and an assertion's) fields read once. The semantic rules look at about twenty fields of every step, most
 * of them absent; on parsed JSON objects of many shapes each such read is a slow (megamorphic)
 * lookup. Walking the step's own keys once into an object of one fixed shape makes every later
 * read a plain field load. Unknown keys are left out: no rule reads them.
 */
export class StepFields {
  id: unknown = undefined;
  action: unknown = undefined;
  target: unknown = undefined;
  target_pattern: unknown = undefined;
  value: unknown = undefined;
  clear_first: unknown = undefined;
  on_failure: unknown = undefined;
  retry_policy: unknown = undefined;
  condition: unknown = undefined;
  wait_config: unknown = undefined;
  capture_to: unknown = undefined;
  permission_name: unknown = undefined;
  flow: unknown = undefined;
  parameters: unknown = undefined;
  sub_steps: unknown = undefined;

  constructor(step: Record<string, unknown>) {
    for (const key in step) {
      switch (key) {
        case 'id':
          this.id = step.id;
          break;
        case 'action':
          this.action = step.action;
          break;
        case 'target':
          this.target = step.target;
          break;
        case 'target_pattern':
          this.target_pattern = step.target_pattern;
          break;
        case 'value':
          this.value = step.value;
          break;
        case 'clear_first':
          this.clear_first = step.clear_first;
          break;
        case 'on_failure':
          this.on_failure = step.on_failure;
          break;
        case 'retry_policy':
          this.retry_policy = step.retry_policy;
          break;
        case 'condition':
          this.condition = step.condition;
          break;
        case 'wait_config':
          this.wait_config = step.wait_config;
          break;
        case 'capture_to':
          this.capture_to = step.capture_to;
          break;
        case 'permission_name':
          this.permission_name = step.permission_name;
          break;
        case 'flow':
          this.flow = step.flow;
          break;
        case 'parameters':
          this.parameters = step.parameters;
          break;
        case 'sub_steps':
          this.sub_steps = step.sub_steps;
          break;
      }
    }
  }
}

/** An assertion's fields that the semantic rules read, read once (see StepFields). */
export class AssertionFields {
  id: unknown = undefined;
  after_step: unknown = undefined;
  type: unknown = undefined;
  element_description: unknown = undefined;
  expected_value: unknown = undefined;
  expected_substring: unknown = undefined;
  expected_text: unknown = undefined;
  pattern: unknown = undefined;
  variable_name: unknown = undefined;
  reference_screenshot: unknown = undefined;
  condition: unknown = undefined;
  timeout_ms: unknown = undefined;

  constructor(assertion: Record<string, unknown>) {
    for (const key in assertion) {
      switch (key) {
        case 'id':
          this.id = assertion.id;
          break;
        case 'after_step':
          this.after_step = assertion.after_step;
          break;
        case 'type':
          this.type = assertion.type;
          break;
        case 'element_description':
          this.element_description = assertion.element_description;
          break;
        case 'expected_value':
          this.expected_value = assertion.expected_value;
          break;
        case 'expected_substring':
          this.expected_substring = assertion.expected_substring;
          break;
        case 'expected_text':
          this.expected_text = assertion.expected_text;
          break;
        case 'pattern':
          this.pattern = assertion.pattern;
          break;
        case 'variable_name':
          this.variable_name = assertion.variable_name;
          break;
        case 'reference_screenshot':
          this.reference_screenshot = assertion.reference_screenshot;
          break;
        case 'condition':
          this.condition = assertion.condition;
          break;
        case 'timeout_ms':
          this.timeout_ms = assertion.timeout_ms;
          break;
      }
    }
  }
}

/** The object items of a list with their index, fields read once; non-objects are skipped. */
export function assertionEntries(list: unknown): { a: AssertionFields; index: number }[] {
  const out: { a: AssertionFields; index: number }[] = [];
  if (!Array.isArray(list)) return out;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) out.push({ a: new AssertionFields(item as Record<string, unknown>), index: i });
  }
  return out;
}

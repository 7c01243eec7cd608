/**
 * A step's fields read once. The semantic rules look at about twenty fields of every step, most
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

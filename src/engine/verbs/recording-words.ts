/** The descriptions a recording gives its steps and assertions, read by people in reports and the viewer. */

const ACTION_WORDS: Record<string, string> = {
  launch_app: 'Launch the app',
  tap: 'Tap',
  double_tap: 'Double-tap',
  long_press: 'Long-press',
  swipe: 'Swipe',
  scroll_to_element: 'Scroll to',
  press_button: 'Press',
  open_url: 'Open',
  wait_for_element: 'Wait for',
  wait_for_element_gone: 'Wait until gone:',
  wait_for_loading_complete: 'Wait for loading to finish',
  capture_value: 'Read the text of',
  clear_app_data: 'Clear the app data',
  press_back: 'Go back',
  dismiss_keyboard: 'Close the keyboard',
  grant_permission: 'Allow the permission',
  deny_permission: 'Deny the permission',
};

/** The fields of a recorded step that its description reads (recording.ts RecordedStep has them). */
interface StepWords {
  action: string;
  target?: string;
  target_pattern?: string;
  value?: string;
  permission_name?: string;
}

export function describeStep(s: StepWords): string {
  const target = s.target ?? (s.target_pattern ? `/${s.target_pattern}/` : undefined);
  if (s.action === 'type') return `Type ${JSON.stringify(s.value ?? '')}${target ? ` into ${target}` : ''}`;
  const words = ACTION_WORDS[s.action] ?? s.action;
  const what = target ?? (s.action === 'launch_app' || s.action === 'clear_app_data' ? s.value : s.value ?? s.permission_name);
  return what ? `${words} ${what}` : words;
}

export function describeAssertion(a: { type: string } & Record<string, unknown>): string {
  const subject = a.element_description ?? a.expected_text ?? a.expected_substring ?? a.pattern;
  return `${a.type.replace(/_/g, ' ')}${subject !== undefined ? `: ${String(subject)}` : ''}`;
}

import { ToolError } from '../../errors.js';
import type { CtrlLetter } from '../../types.js';
import type { PhoneState, TaskState } from './state.js';
import type { View } from './view.js';

/**
 * A hardware keyboard's Ctrl shortcuts in the virtual phones' text fields. Selection is modelled as
 * the whole text of one field or nothing (there is no cursor: typing always appends), which is what
 * Ctrl+A makes: typing then replaces the text and Backspace empties the field, as on a phone. Any tap
 * (placing the cursor, another field) or Tab ends it.
 */

/** The field whose whole text is selected, if it is still the focused one. */
export function selectedField(task: TaskState): string | undefined {
  return task.selected && task.selected === task.focus && !task.dialog ? task.selected : undefined;
}

/** Ctrl+A selects, Ctrl+C copies, Ctrl+X cuts to the phone's clipboard; with nothing focused or selected they change nothing, as on a phone. */
export function ctrlShortcut(state: PhoneState, task: TaskState, letter: CtrlLetter, phoneId: string): void {
  if (letter === 'Z') throw new ToolError('UNSUPPORTED', `the virtual phone ${phoneId} keeps no undo history, so CTRL+Z would undo nothing; nothing was pressed`);
  if (task.dialog || !task.focus) return;
  const field = task.focus;
  if (letter === 'A') {
    task.selected = task.fields[field] ? field : null;
    return;
  }
  if (selectedField(task) !== field) return;
  state.clipboard = task.fields[field] ?? '';
  if (letter === 'X') {
    task.fields[field] = '';
    task.selected = null;
  }
}

/** Typing or Backspace into a selected field first removes the selection's text. */
export function takeSelection(task: TaskState): boolean {
  const field = selectedField(task);
  task.selected = null;
  if (!field) return false;
  task.fields[field] = '';
  return true;
}

/** The screen's views with the selected field marked, so it is drawn highlighted. */
export function withSelection(view: View, field: string | undefined): View {
  if (!field) return view;
  if (view.kind === 'field') return view.id === field ? { ...view, selected: true } : view;
  if (view.kind === 'column' || view.kind === 'row') return { ...view, children: view.children.map((c) => withSelection(c, field)) };
  return view;
}

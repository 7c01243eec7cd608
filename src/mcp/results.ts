import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Candidate } from '../engine/resolve/index.js';
import { permissionNext } from './refusals.js';
import { SESSION_TOOLS } from './session-tools.js';
import { VERB_TOOLS } from './verb-tools.js';

/** What a model should do next after each error code (SPEC §2 codes plus the verbs' own); PERMISSION_DENIED by its cause (nextStep). */
export const NEXT_STEP: Record<string, string> = {
  DEVICE_NOT_FOUND: 'Call list_devices and pass one of the ids it returns as "device".',
  APP_NOT_INSTALLED: 'Call list_apps to see the installed package ids and use one of them; the app must be installed first.',
  ELEMENT_NOT_FOUND:
    'Call list_elements (or take_screenshot) to see what is on screen, then describe the element by its visible text or label, e.g. "the Sign in button". If it is further down a list use scroll_to; if it appears after loading use wait_for; if it is disabled, do what enables it first.',
  TIMEOUT: 'The device or the wait ran out of time. Take a screenshot to see the current state, then retry, or call wait_for again (timeout_ms up to 45000 each time) to wait longer.',
  INVALID_PARAMETER:
    'Do what the message says before calling again: change the value it names, or first change what it says is in the way (a recording already running or none running, no text field focused, the keyboard still open); the same call unchanged is refused again.',
  UNSUPPORTED: 'This platform cannot do that unattended. Use another verb (e.g. press_back instead of press_button BACK on iOS), or ask the user to do it on the device.',
  NEEDS_MANUAL: 'A person has to do this on the device. Tell the user what to do, then continue.',
  CANCELLED: 'The action was cancelled; call the tool again if it is still wanted.',
  INTERNAL: 'Something failed inside mobilebridge. Retry once; if it fails again, report the message to the user.',
};

export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

export function json(value: unknown): CallToolResult {
  // Compact: indentation would be a third of the text, and every character is a model token.
  return text(JSON.stringify(value));
}

function candidatesLine(candidates: readonly Candidate[] | undefined): string {
  if (!candidates?.length) return '';
  const list = candidates.slice(0, 5).map((c) => `${JSON.stringify(c.text || c.label || c.shows || c.id)} (${c.type})`);
  return `\nClosest elements: ${list.join(', ')}. Describe the one you mean more precisely (its exact text in quotes, its position, or "the second …").`;
}

/** The argument names of the tools offered, as a refusal quotes them ("name" is required). */
const ARGUMENTS: ReadonlySet<string> = new Set([...VERB_TOOLS, ...SESSION_TOOLS].flatMap((t) => Object.keys(t.inputSchema.properties)));

/**
 * INVALID_PARAMETER also refuses calls whose arguments are fine but come at the wrong time (a
 * recording already running, no field focused): only a message naming one of the call's
 * arguments ("name" is required, save_to "a.txt" must …) is known to be about a parameter, and
 * its hint names it. A scenario quoted after the message (a refused save_to) is not read.
 */
function invalidNext(message: string): string {
  const prose = message.split(/\n[[{]/)[0];
  // An argument the tool does not take (often another server's name for one, maxSize for max_size).
  const unknown = /unknown (?:argument|parameter)s? "([^"]+)"(?: \(did you mean "([^"]+)"\?\))?/.exec(prose);
  if (unknown) {
    const [, given, meant] = unknown;
    return meant ? `Rename "${given}" to "${meant}" and call the tool again; do not retry unchanged.` : `Leave out "${given}" (the tool does not take it; the message lists what it takes) and call the tool again; do not retry unchanged.`;
  }
  const named = [...prose.matchAll(/"([a-z_]+)"|\b([a-z_]+) "/g)].map((m) => m[1] ?? m[2]).find((name) => ARGUMENTS.has(name));
  return named ? `Fix "${named}" as the message says and call the tool again; do not retry unchanged.` : NEXT_STEP.INVALID_PARAMETER;
}

export function nextStep(code: string, message: string): string {
  if (code === 'PERMISSION_DENIED') return permissionNext(message);
  if (code === 'INVALID_PARAMETER') return invalidNext(message);
  return NEXT_STEP[code] ?? NEXT_STEP.INTERNAL;
}

/** An `isError` result: the code, the message naming what was wrong, and what to do next. */
export function errorResult(code: string, message: string, candidates?: readonly Candidate[], next = nextStep(code, message)): CallToolResult {
  // Callers pass messages already in the agent's terms (see inAgentTerms).
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}${candidatesLine(candidates)}\nNext: ${next}` }] };
}

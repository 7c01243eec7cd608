import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isToolFailure } from '../engine/errors.js';
import { DeterministicResolver } from '../engine/resolve/index.js';
import type { UiElement } from '../engine/types.js';
import { resolvedOf } from '../engine/verbs/index.js';
import type { AgentBackend } from './backend.js';
import { errorResult, json } from './results.js';

const resolver = new DeterministicResolver();

/**
 * The `pinch` tool: the element the description names, as the verbs resolve it on the screen as it
 * is now, then mobile_pinch_on_screen around its centre. Not a scenario action (schema 2.2 has no
 * pinch), so a recording does not keep it; the activity feed shows the engine call.
 */
export async function pinchTarget(backend: AgentBackend, device: string, target: string, scale: number, fail: typeof errorResult, signal?: AbortSignal): Promise<CallToolResult> {
  const [listed, size] = await Promise.all([backend.callTool('mobile_list_elements_on_screen', { device }, signal), backend.callTool('mobile_get_screen_size', { device }, signal)]);
  if (isToolFailure(listed)) return fail(listed.code, listed.message);
  if (isToolFailure(size)) return fail(size.code, size.message);
  const elements = (listed as { elements: UiElement[] }).elements;
  const found = resolver.resolve({ description: target, intent: 'read', screen: size as { width: number; height: number } }, elements);
  // As the verbs answer (verbs/target.ts): a point or an empty description is the caller's mistake, not a missing element.
  if (!found.ok) return fail(found.reason === 'bad_request' ? 'INVALID_PARAMETER' : 'ELEMENT_NOT_FOUND', `${found.message} (on ${device})`, found.candidates);
  const { center } = found.element;
  // A pinch its caller gave up on while the screen was looked at is not made.
  if (signal?.aborted) return fail('INTERNAL', `pinch on ${device} was cancelled by its caller before it touched the screen`);
  const done = await backend.callTool('mobile_pinch_on_screen', { device, x: center.x, y: center.y, scale }, signal);
  if (isToolFailure(done)) return fail(done.code, done.message);
  return json({ action: 'pinch', status: 'passed', resolved: resolvedOf(found.element, found.confidence), message: (done as { message: string }).message });
}

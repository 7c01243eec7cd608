import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';

/**
 * A coordinate tap (a viewer's click, an agent's mobile_click_on_screen_at_coordinates) on a text
 * field that already holds text is recorded by the field's name, as the inspector names it: the text
 * is what someone typed, which a replay on a fresh install does not find, and which must not be
 * written into the scenario (it may be personal data or a secret).
 */

const A = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';
const TYPED = 'jane.doe@corp.example';

const raw = (engine: Engine, origin: string, tool: string, parameters: Record<string, unknown> = {}) => engine.call(tool, { device: A, ...parameters }, { origin });

test('a tap on a filled field is recorded as "the Email field", never by its text, and replays on an empty form', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const origin = 'rec-filled';
  const session = new AgentSession(engine, origin);
  try {
    assert.is((await session.run(A, { action: 'launch_app', value: DEMO })).status, 'passed');
    assert.is((await session.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    assert.is((await session.run(A, { action: 'type', target: 'the Email field', value: TYPED, clear_first: true })).status, 'passed');
    await session.startRecording({ device: A, name: 'filled', app_package: DEMO });
    const { elements } = (await raw(engine, origin, 'mobile_list_elements_on_screen')) as { elements: UiElement[] };
    const field = elements.find((e) => e.id === 'email');
    assert.is(field?.text, TYPED, 'the field holds what was typed before');
    await raw(engine, origin, 'mobile_click_on_screen_at_coordinates', { x: field!.center.x, y: field!.center.y });
    const stopped = await session.stopRecording(A);
    const text = JSON.stringify(stopped.scenario);
    assert.not.ok(text.includes('jane') || text.includes('corp_example'), text);
    const tap = (stopped.scenario as { steps: { action: string; target?: string }[] }).steps.find((s) => s.action === 'tap');
    assert.is(tap?.target, 'the Email field');
    // On an empty form the same target finds the field.
    assert.is((await session.run(A, { action: 'type', target: 'the Email field', value: '', clear_first: true })).status, 'passed');
    const again = await session.run(A, { action: 'tap', target: tap!.target! });
    assert.is(again.status, 'passed', JSON.stringify(again));
    assert.is(again.resolved?.id, 'email');
  } finally {
    session.close();
    await engine.close();
  }
});

test.run();

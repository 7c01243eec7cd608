import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';

/**
 * A dialog's texts were quoted once per element field: on iOS an element's label repeats its text
 * and an alert's label its title, so alert_text's actual read "Reset likes? | Reset likes? | …" and
 * permission_dialog_shown's the prompt's title three times and each button twice (MCP audit: tokens
 * an agent pays for every check of a dialog). Each text is now quoted once, in order.
 */

const I = 'virtual-ios-1';

function session(): AgentSession {
  return new AgentSession(createEngine({ virtual: {}, android: false, ios: false }), 'test');
}

function once(actual: string, parts: string[]): void {
  for (const part of parts) assert.is(actual.split(part).length - 1, 1, `${JSON.stringify(part)} once in ${JSON.stringify(actual)}`);
}

test('alert_text quotes each text of the dialog once', async () => {
  const agent = session();
  try {
    assert.is((await agent.run(I, { action: 'open_url', value: 'mbdemo://screen/alert' })).status, 'passed');
    const r = await agent.assert(I, { type: 'alert_text', expected_text: 'Reset likes?' });
    assert.is(r.status, 'passed', r.message);
    once(String(r.actual), ['Reset likes?', 'This removes the like', 'Cancel']);
  } finally {
    agent.close();
  }
});

test('permission_dialog_shown quotes the prompt\'s title and buttons once', async () => {
  const agent = session();
  try {
    assert.is((await agent.run(I, { action: 'open_url', value: 'mbdemo://screen/permission' })).status, 'passed');
    const r = await agent.assert(I, { type: 'permission_dialog_shown', permission_name: 'camera' });
    assert.is(r.status, 'passed', r.message);
    once(String(r.actual), ['Would Like to Access the Camera', 'Don’t Allow', 'The camera is used']);
  } finally {
    agent.close();
  }
});

test.run();

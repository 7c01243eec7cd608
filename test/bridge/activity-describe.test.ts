import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { summarize } from '../../src/bridge/activity/describe.js';

test('a streamed drag is one sentence in its main direction, saying when it was replayed on release', () => {
  assert.is(summarize({ tool: 'input.touch', parameters: { from: { x: 500, y: 1500 }, to: { x: 510, y: 1250 } } }), 'dragged up from (500, 1500) to (510, 1250)');
  assert.is(
    summarize({ tool: 'input.touch', parameters: { from: { x: 100, y: 800 }, to: { x: 700, y: 820 }, streamed: false } }),
    'dragged right from (100, 800) to (700, 820) (replayed on release)',
  );
  assert.is(summarize({ tool: 'input.touch', parameters: { action: 'cancel' } }), 'cancelled a drag');
  assert.is(summarize({ tool: 'input.touch', parameters: { action: 'up', from: { x: 300, y: 700 }, to: { x: 301, y: 700 }, long_press: true } }), 'long-pressed at (300, 700)');
});

test('a key names the key; a tap names the element it landed on, else the point', () => {
  assert.is(summarize({ tool: 'input.key', parameters: { key: 'BACKSPACE' } }), 'pressed BACKSPACE');
  assert.is(summarize({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { x: 5, y: 6 } }), 'tapped (5, 6)');
  assert.is(
    summarize({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { x: 5, y: 6 }, element: { id: 'b', type: 'button', name: 'Sign in' } }),
    'tapped the “Sign in” button',
  );
});

test('a pinch names the element it zoomed and the direction', () => {
  assert.is(
    summarize({ tool: 'mobile_pinch_on_screen', parameters: { x: 540, y: 600, scale: 2 }, element: { id: 'detail_image', type: 'image', name: 'Photo of Item 3' } }),
    'zoomed in on the “Photo of Item 3” image (two fingers, ×2)',
  );
  assert.is(summarize({ tool: 'mobile_pinch_on_screen', parameters: { x: 540, y: 600, scale: 0.5 } }), 'zoomed out on (540, 600) (two fingers, ×0.5)');
  // An element without a name: "an element", "an image", "a button".
  assert.is(summarize({ tool: 'mobile_pinch_on_screen', parameters: { x: 540, y: 600, scale: 2 }, element: { id: 'n0.3', type: 'other', name: '' } }), 'zoomed in on an element (two fingers, ×2)');
});

test('an action that failed is said as tried, never as done', () => {
  const failed = { status: 'error' as const, code: 'APP_NOT_INSTALLED', message: 'com.nope.app is not installed' };
  assert.is(summarize({ tool: 'mobile_launch_app', parameters: { packageName: 'com.nope.app' }, outcome: failed }), 'tried to launch com.nope.app (failed: APP_NOT_INSTALLED)');
  assert.is(summarize({ tool: 'mobile_launch_app', parameters: { packageName: 'com.example.app' }, outcome: { status: 'success' } }), 'launched com.example.app');
  assert.is(
    summarize({ verb: 'type', parameters: { target_pattern: '^Pass', value: '•••' }, element: { id: 'password', type: 'edittext', name: 'Password' }, masked: { characters: 14, reason: 'typed into a password field' }, outcome: { status: 'error', code: 'ELEMENT_NOT_FOUND' } }),
    'tried to type 14 characters into the “Password” field (step type /^Pass/) (failed: ELEMENT_NOT_FOUND)',
  );
  assert.is(
    summarize({ tool: 'mobile_type_keys', parameters: { text: 'ada', clear_first: true, submit: true }, outcome: { status: 'error', code: 'TIMEOUT' } }),
    'tried to empty the field and type “ada” and press ENTER (failed: TIMEOUT)',
  );
  assert.is(summarize({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { x: 5, y: 6 }, outcome: { status: 'error' } }), 'tried to tap (5, 6) (failed)');
});

test.run();

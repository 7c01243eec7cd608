import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClientListeners } from '../../src/protocol/client-listeners.js';

test('a listener that throws does not stop the others; its error reaches the error listeners once', () => {
  const l = new ClientListeners();
  const seen: string[] = [];
  const errors: string[] = [];
  l.onNotification('devices.changed', () => {
    throw new Error('listener broke');
  });
  l.onNotification('devices.changed', (p) => seen.push(`second ${JSON.stringify(p)}`));
  l.onError((e) => errors.push(e.message));
  l.onError(() => {
    throw new Error('an error listener that throws goes nowhere');
  });
  l.notification('devices.changed', { n: 1 });
  l.notification('other.event', {});
  assert.equal(seen, ['second {"n":1}']);
  assert.equal(errors, ['listener broke']);
});

test('removing a listener while events are delivered: the current delivery still reaches everyone, later ones not', () => {
  const l = new ClientListeners();
  const seen: string[] = [];
  let offB = () => {};
  l.onState((s) => {
    seen.push(`a ${s}`);
    offB();
  });
  offB = l.onState((s) => seen.push(`b ${s}`));
  l.state('open');
  l.state('closed');
  assert.equal(seen, ['a open', 'b open', 'a closed']);
});

test.run();

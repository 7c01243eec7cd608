import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ElementWatcher } from '../../src/bridge/elements.js';
import { Session, Subscription } from '../../src/bridge/sessions.js';
import { ToolError } from '../../src/engine/errors.js';
import type { ElementListing } from '../../src/engine/driver.js';
import type { UiElement } from '../../src/engine/types.js';
import type { ElementsChangedParams } from '../../src/protocol/index.js';

const button = (id: string): UiElement => ({ id, type: 'button', text: id, accessibility_label: null, x: 0, y: 0, width: 10, height: 10, visible: true, enabled: true, center: { x: 5, y: 5 } });

/** The elements.changed a session was sent, in order. */
function sent(session: Session): ElementsChangedParams[] {
  return session.missedSince(0).messages.map((m) => JSON.parse(`${m.head}${m.body?.toString() ?? ""}`).params as ElementsChangedParams);
}

test('a device whose elements cannot be listed from the start: the subscriber gets an empty reset whose note says why, then the list once it works', async () => {
  let next: () => Promise<ElementListing> = () => Promise.reject(new ToolError('UNSUPPORTED', 'the screen kept changing'));
  let listed = Promise.resolve();
  const watcher = new ElementWatcher('phone', 60_000, {
    list: () => {
      const p = next();
      listed = p.then(() => undefined, () => undefined);
      return p;
    },
    onGone: () => assert.unreachable('not gone'),
    log: () => undefined,
  });
  const session = new Session({ graceMs: 1000, replayMessages: 100, replayBytes: 1 << 20, maxDetached: 4 });
  const sub = new Subscription(session, 'phone', undefined, true);
  try {
    watcher.add(sub);
    await listed;
    await new Promise((r) => setImmediate(r));
    const [reset] = sent(session);
    assert.ok(reset?.reset, 'a reset comes although nothing could be listed');
    assert.equal(reset.added, []);
    assert.is(reset.note, 'the elements could not be listed (UNSUPPORTED: the screen kept changing); listing is tried again every 60 s');

    next = () => Promise.resolve([button('ok')]);
    watcher.refresh();
    await listed;
    await new Promise((r) => setImmediate(r));
    const diff = sent(session)[1];
    assert.equal([diff.seq, diff.added.map((e) => e.id), diff.note], [reset.seq + 1, ['ok'], null]);
  } finally {
    watcher.stop();
  }
});

test.run();

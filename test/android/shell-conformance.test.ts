import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUiautomatorDump } from '../../src/engine/drivers/android/uiautomator.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiNode } from '../../src/engine/ui-tree.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { frameworkDumpXml } from '../harness/adbd/uiautomator-xml.js';

/*
 * The emulated shell against what AOSP prints, for outputs and exit statuses the driver meets through
 * `&&`/`||` chains and that independent emulations reproduce: ActivityManagerShellCommand
 * runStartActivity, PackageManagerShellCommand runUninstall/runClear/runInstall, InputShellCommand
 * (Input.java before Android 12), BasicShellCommandHandler's exception report, and `uiautomator dump`
 * (frameworks/base cmds/uiautomator DumpCommand and AccessibilityNodeInfoDumper).
 */
const shell = suite<{ phone?: EmulatedPhone }>('emulated shell: AOSP texts and exit statuses');

shell.before(async (ctx) => {
  ctx.phone = await EmulatedPhone.start();
});
shell.after(async (ctx) => {
  await ctx.phone?.close();
});
shell.after.each(({ phone }) => {
  Object.assign(phone!.shell.quirks, { release: undefined, injectionDenied: false });
});

const text = (r: { out: Buffer | string }) => String(r.out);

shell('am start -d with no handler: "Starting:" then the refusal with the NEW_TASK flag am added, exit 1, so a && chain stops', async ({ phone }) => {
  const r = await phone!.shell.run("am start -a android.intent.action.VIEW -d 'nosuchscheme://x' && echo next");
  assert.is(r.code, 1);
  assert.is(text(r), 'Starting: Intent { act=android.intent.action.VIEW dat=nosuchscheme://x }\nError: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=nosuchscheme://x flg=0x10000000 }\n');
});

shell('pm uninstall and pm clear report failure with exit 1 (pm clear: "Failed" on stderr)', async ({ phone }) => {
  const removed = await phone!.shell.run('pm uninstall com.example.absent && echo next');
  assert.is(text(removed), 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
  assert.is(removed.code, 1);
  const cleared = await phone!.shell.run('pm clear com.example.absent 2>/dev/null || echo refused');
  assert.is(text(cleared), 'refused\n');
});

shell('an exception escaping a cmd-style command: "Exception occurred while executing \'<cmd>\':" from Android 11; ShellCommand\'s "Security exception:" on 8–10; Pm.java\'s "Error:" before', async ({ phone }) => {
  const q = phone!.shell.quirks;
  q.securityDenied.add(DEMO_PACKAGE);
  try {
    const r = await phone!.shell.run(`pm clear ${DEMO_PACKAGE}`);
    assert.is(r.code, 255);
    assert.match(text(r), /^\nException occurred while executing 'clear':\njava\.lang\.SecurityException: /);
    q.release = { version: '10', sdk: 29 };
    const ten = await phone!.shell.run(`pm clear ${DEMO_PACKAGE}`);
    assert.match(text(ten), /^Security exception: Permission Denial: shell cannot manage \S+\n\njava\.lang\.SecurityException: Permission Denial/);
    assert.is(ten.code, 255);
    assert.match(text(await phone!.shell.run('pm install-commit nosuchid')), /^\nException occurred while executing:\njava\.lang\.NumberFormatException: /);
    q.release = { version: '7.1.2', sdk: 25 };
    const seven = await phone!.shell.run(`pm clear ${DEMO_PACKAGE}`);
    assert.equal([text(seven), seven.code], [`Error: java.lang.SecurityException: Permission Denial: shell cannot manage ${DEMO_PACKAGE}\n`, 1]);
  } finally {
    q.securityDenied.clear();
  }
});

shell('input text with a character the virtual key map lacks fails with the NullPointerException, as sendText does, instead of passing silently', async ({ phone }) => {
  const r = await phone!.shell.run("input text 'caf\u00e9'");
  assert.is(r.code, 255);
  assert.match(text(r), /^\nException occurred while executing 'text':\njava\.lang\.NullPointerException: Attempt to get length of null array\n\tat com\.android\.server\.input\.InputShellCommand\.sendText/);
  phone!.shell.quirks.release = { version: '9', sdk: 28 };
  const old = await phone!.shell.run("input text 'caf\u00e9'");
  assert.match(text(old), /^java\.lang\.NullPointerException: Attempt to get length of null array\n\tat com\.android\.commands\.input\.Input\.sendText/);
});

shell('refused injection names INJECT_EVENTS in the words of the release: InputManagerService changed them in Android 13', async ({ phone }) => {
  const q = phone!.shell.quirks;
  q.injectionDenied = true;
  assert.match(text(await phone!.shell.run('input tap 10 10')), /^\nException occurred while executing 'tap':\njava\.lang\.SecurityException: Injecting input events requires the caller/);
  q.release = { version: '12', sdk: 31 };
  assert.match(text(await phone!.shell.run('input tap 10 10')), /^\nException occurred while executing 'tap':\njava\.lang\.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n/);
  q.release = { version: '10', sdk: 29 };
  const app = await phone!.shell.run('input tap 10 10');
  assert.match(text(app), /^java\.lang\.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n\tat com\.android\.commands\.input\.Input\./);
  assert.is(app.code, 1);
});

shell('wm size: an override equal to the physical size prints no Override line (runDisplaySize compares base and initial size)', async ({ phone }) => {
  const q = phone!.shell.quirks;
  try {
    q.wmOverride = { width: 1080, height: 2400 };
    assert.is(text(await phone!.shell.run('wm size')), 'Physical size: 1080x2400\n');
    q.wmOverride = { width: 720, height: 1600 };
    assert.is(text(await phone!.shell.run('wm size')), 'Physical size: 1080x2400\nOverride size: 720x1600\n');
  } finally {
    q.wmOverride = undefined;
  }
});

/** AccessibilityNodeInfoDumper.dumpNodeRec's attributes, in its order (NAF="true" goes before them when set). */
const DUMPED = ['index', 'text', 'resource-id', 'class', 'package', 'content-desc', 'checkable', 'checked', 'clickable', 'enabled', 'focusable', 'focused', 'scrollable', 'long-clickable', 'password', 'selected', 'bounds'];

shell('uiautomator dump /dev/tty: the framework dumper\'s attributes only, an empty field\'s hint as its text, "dumped to" right after </hierarchy>', async ({ phone }) => {
  await phone!.shell.run(`am start -n ${DEMO_PACKAGE}/.MainActivity`);
  const out = text(await phone!.shell.run('uiautomator dump /dev/tty'));
  assert.ok(out.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n'), out.slice(-80));
  const nodes = [...out.matchAll(/<node ([^>]*?)\s*\/?>/g)].map((m) => [...m[1].matchAll(/([\w-]+)="/g)].map((a) => a[1]));
  assert.ok(nodes.length > 5);
  for (const names of nodes) assert.equal(names[0] === 'NAF' ? names.slice(1) : names, DUMPED);
  // TextView.getTextForAccessibility: an empty field reports its hint as its text.
  assert.match(out, /<node index="\d+" text="Email" resource-id="[^"]*" class="android\.widget\.EditText"/);
});

shell('the framework dumper: NAF, invisible children left out, bounds cut to the display, KXmlSerializer escapes; the driver reads it', () => {
  const leaf = (over: Partial<UiNode>): UiNode => ({ type: 'other', text: '', label: null, bounds: { x: 0, y: 0, width: 10, height: 10 }, enabled: true, children: [], ...over });
  const root = leaf({
    className: 'android.widget.FrameLayout',
    bounds: { x: 0, y: 0, width: 100, height: 200 },
    children: [
      leaf({ className: 'android.widget.ImageButton', clickable: true, resourceId: 'app:id/fab', bounds: { x: 80, y: 190, width: 40, height: 40 } }),
      leaf({ className: 'android.widget.TextView', text: 'gone', displayed: false }),
      leaf({ className: 'android.widget.TextView', text: `it's "1 < 2" & 😀\nnext` }),
    ],
  });
  const xml = frameworkDumpXml(root, 0, { width: 100, height: 200 });
  assert.match(xml, /<node NAF="true" index="0" text="" resource-id="app:id\/fab" class="android\.widget\.ImageButton"[^>]* bounds="\[80,190\]\[100,200\]" \/>/);
  assert.not.match(xml, /gone/);
  assert.match(xml, /<node index="2" text="it's &quot;1 &lt; 2&quot; &amp; &#128512;&#10;next"/);
  const { root: parsed } = parseUiautomatorDump(`${xml}UI hierchary dumped to: /dev/tty\n`);
  const [fab, label] = parsed.children[0].children;
  assert.equal([fab.resourceId, fab.bounds, label.text], ['app:id/fab', { x: 80, y: 190, width: 20, height: 10 }, 'it\'s "1 < 2" & 😀\nnext']);
});

shell('cmd wifi before Android 11: no shell command on 7 (exit 0), root only on 8–10 (ShellCommand.exec\'s "Security exception:", exit 255)', async ({ phone }) => {
  const q = phone!.shell.quirks;
  q.release = { version: '7.1.2', sdk: 25 };
  const seven = await phone!.shell.run('cmd wifi set-wifi-enabled disabled');
  assert.equal([text(seven), seven.code], ['No shell command implementation.\n', 0]);
  q.release = { version: '9', sdk: 28 };
  const nine = await phone!.shell.run('cmd wifi set-wifi-enabled disabled');
  assert.is(nine.code, 255);
  assert.match(text(nine), /^Security exception: Uid 2000 does not have access to wifi commands\n\njava\.lang\.SecurityException: Uid 2000 does not have access to wifi commands\n\tat com\.android\.server\.wifi\.WifiShellCommand\.checkRootPermission/);
  assert.is(phone!.phone.wifi, true, 'neither switched Wi-Fi');
});

shell.run();

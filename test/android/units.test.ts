import { test } from 'uvu';
import * as assert from 'uvu/assert';
import sharp from 'sharp';
import { AdbAddressError, resolveAdbAddress } from '../../src/engine/drivers/android/adb-address.js';
import { shellQuote } from '../../src/engine/drivers/android/adb-client.js';
import { androidSetupFromFlags } from '../../src/engine/drivers/android/setup.js';
import { AppVersionSource } from '../../src/engine/drivers/android/app-versions.js';
import { CaptureDisplay } from '../../src/engine/drivers/android/capture-display.js';
import { encodeRawImage, isOpaqueFrame, parseRawScreencap, pngFromScreencap, rgbaFromRawFrame } from '../../src/engine/drivers/android/screencap.js';
import { parseDefaultDisplayPanel, parseDumpedVersions, parseLauncherApps, parseListedVersions, parseResumedPackage, parseRotation, parseViewportCount, parseWifiOn, parseWmSize } from '../../src/engine/drivers/android/shell-output.js';
import { inputTextCommands, MAX_COMMAND_BYTES, monkeyTypeLine } from '../../src/engine/drivers/android/text-input.js';
import { logicalFrameSize } from '../../src/engine/drivers/android/frame-scale.js';
import { installRefusal } from '../../src/engine/drivers/android/install-failure.js';
import { LauncherSource } from '../../src/engine/drivers/android/launcher-source.js';
import { parseLauncherActivities } from '../../src/engine/drivers/android/resolver-table.js';
import { parseScreenState } from '../../src/engine/drivers/android/screen-state.js';
import { parseCommandLine } from '../harness/adbd/shell-words.js';
import { commandLineSplit } from '../harness/adbd/monkey-service.js';

test('adb address: flag beats env, ADB_SERVER_SOCKET forms and precedence, address and port variables, default', () => {
  assert.equal(resolveAdbAddress('10.0.0.2:5099', { ANDROID_ADB_SERVER_PORT: '6000' }), { host: '10.0.0.2', port: 5099, source: '--adb 10.0.0.2:5099' });
  assert.is(resolveAdbAddress(undefined, { ADB_SERVER_SOCKET: 'tcp:7001' }).port, 7001);
  assert.is(resolveAdbAddress(undefined, { ADB_SERVER_SOCKET: 'tcp:box:7002' }).host, 'box');
  assert.is(resolveAdbAddress(undefined, { ANDROID_ADB_SERVER_PORT: '6000' }).port, 6000);
  assert.equal(resolveAdbAddress(undefined, {}), { host: '127.0.0.1', port: 5037, source: 'the default 127.0.0.1:5037' });
  // adb's commandline.cpp: ADB_SERVER_SOCKET wins over ANDROID_ADB_SERVER_ADDRESS/PORT; those two go together.
  assert.equal(resolveAdbAddress(undefined, { ADB_SERVER_SOCKET: 'tcp:1', ANDROID_ADB_SERVER_PORT: '2' }), { host: 'localhost', port: 1, source: 'ADB_SERVER_SOCKET=tcp:1' });
  assert.equal(resolveAdbAddress(undefined, { ANDROID_ADB_SERVER_ADDRESS: 'labhost', ANDROID_ADB_SERVER_PORT: '6000' }), { host: 'labhost', port: 6000, source: 'ANDROID_ADB_SERVER_ADDRESS=labhost ANDROID_ADB_SERVER_PORT=6000' });
  assert.equal(resolveAdbAddress(undefined, { ANDROID_ADB_SERVER_ADDRESS: 'labhost' }), { host: 'labhost', port: 5037, source: 'ANDROID_ADB_SERVER_ADDRESS=labhost' });
  assert.throws(() => resolveAdbAddress(undefined, { ANDROID_ADB_SERVER_PORT: '99999' }), /between 1 and 65535, got "99999"/);
  assert.throws(() => resolveAdbAddress(undefined, { ADB_SERVER_SOCKET: 'localfilesystem:/x' }), /only tcp:port or tcp:host:port/);
});

test('CLI flags: --no-android, --adb host:port, local default may start a server, remote may not', () => {
  assert.is(androidSetupFromFlags({ android: false }), false);
  assert.equal(androidSetupFromFlags({ adb: 'phonebox:5037' }, {}), { host: 'phonebox', port: 5037, startServer: false });
  assert.equal(androidSetupFromFlags({}, {}), { host: '127.0.0.1', port: 5037, startServer: true, origin: 'the default 127.0.0.1:5037' });
  assert.equal(androidSetupFromFlags({}, { ADB_SERVER_SOCKET: 'tcp:far:5037' }), { host: 'far', port: 5037, startServer: false, origin: 'ADB_SERVER_SOCKET=tcp:far:5037' });
  assert.is((androidSetupFromFlags({}, { ANDROID_ADB_SERVER_ADDRESS: 'far' }) as { startServer: boolean }).startServer, false, 'a remote server named by ANDROID_ADB_SERVER_ADDRESS is not started here');
  assert.throws(() => androidSetupFromFlags({ adb: true }, {}), (e: unknown) => e instanceof AdbAddressError && /--adb needs a value/.test((e as Error).message));
});

test('typed text survives the device shell word for word, spaces and literal %s included', () => {
  const text = `it's $HOME \`id\` "q" & a|b; 100%s done\\`;
  const { commands } = inputTextCommands(text, 'dev');
  assert.is(commands.length, 1);
  const typed = parseCommandLine(commands[0]).map((c) => c.words.slice(2).join(' ').replace(/%s/g, ' ')).join('');
  assert.is(typed, text);
  assert.ok(parseCommandLine(commands[0]).every((c) => c.words[0] === 'input' && c.words[1] === 'text'));
  assert.match(inputTextCommands('a\nb', 'dev').commands[0], /input keyevent 66/);
  assert.throws(() => inputTextCommands('naïve 😀', 'dev'), /cannot type "ï", "😀" on dev/);
  assert.is(shellQuote("a'b"), `'a'\\''b'`);
});

test('a long text is typed by several commands, each small enough for adbd before Android 7 (4 KiB), that together type it word for word', () => {
  const text = `${"it's %s a  long\tline ".repeat(700)}\nend%`;
  const { commands, typed } = inputTextCommands(text, 'dev');
  assert.ok(commands.length > 3, `${commands.length} commands`);
  for (const c of commands) assert.ok(Buffer.byteLength(c) <= MAX_COMMAND_BYTES, `${Buffer.byteLength(c)} bytes`);
  const keys: Record<string, string> = { 66: '\n', 61: '\t' };
  const replay = commands
    .flatMap((c) => parseCommandLine(c))
    .map((c) => (c.words[1] === 'keyevent' ? keys[c.words[2]] : c.words.slice(2).join(' ').replace(/%s/g, ' ')))
    .join('');
  assert.is(replay, text);
  assert.is(typed[typed.length - 1], text);
  assert.ok(text.startsWith(typed[0]) && typed[0].length < text.length);
});

test('monkey types a text only when its line splitting gives the text back unchanged', () => {
  const kept = ['hello', 'user@example.com', 'p4ss w0rd!', 'a b c', "it's", '100%s done', '#tag', '$HOME `id` & a|b; (x)', 'x'];
  for (const text of kept) {
    const line = monkeyTypeLine(text);
    assert.ok(line, text);
    assert.equal(commandLineSplit(line!), ['type', text], text);
  }
  // Each of these comes out of MonkeySourceNetwork's splitter changed (or not at all): `input text` types them.
  for (const text of ['a  b', ' a', 'a ', 'say "hi"', '"q', 'end\\', 'a\\ b', 'tab\there', 'naïve', 'line\nbreak', '']) {
    assert.is(monkeyTypeLine(text), undefined, JSON.stringify(text));
  }
  // What the splitter does with them, as MonkeySourceNetwork does.
  assert.equal(commandLineSplit('type "a  b"'), ['type', 'a b']);
  assert.equal(commandLineSplit('type "hi"'), ['type'], 'a one-word quote never closes');
  assert.equal(commandLineSplit('type "a b\\"'), ['type', 'a b'], 'a backslash before the closing quote is lost');
});

test('wm size prefers the Override line', () => {
  assert.equal(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600\n'), { width: 720, height: 1600 });
  assert.equal(parseWmSize('Physical size: 1080x2400\n'), { width: 1080, height: 2400 });
  assert.is(parseWmSize('Error'), undefined);
});

test('rotation from dumpsys input, old and new layouts', () => {
  assert.is(parseRotation('    SurfaceOrientation: 3\n'), 3);
  assert.is(parseRotation('  Viewport INTERNAL: displayId=0, uniqueId=local:1, port=0, orientation=1, logicalFrame=[0, 0, 2400, 1080]'), 1);
  assert.is(parseRotation('nothing here'), undefined);
  // A touchpad that does not follow the display says 0 while the display is turned; a foldable's other panel is inactive.
  const foldable = [
    '  Viewport INTERNAL: displayId=0, uniqueId=local:2, port=2, orientation=0, logicalFrame=[0, 0, 0, 0], physicalFrame=[0, 0, 0, 0], deviceSize=[1812, 2176], isActive=[0]',
    '  Viewport INTERNAL: displayId=0, uniqueId=local:1, port=1, orientation=1, logicalFrame=[0, 0, 2092, 1080], physicalFrame=[0, 0, 1080, 2092], deviceSize=[1080, 2092], isActive=[1]',
    '    SurfaceOrientation: 0',
  ].join('\n');
  assert.is(parseRotation(foldable), 1);
});

/** Android 8–9's dumpsys input (InputReader::dump): touch mappers' surfaces, then the configured viewports. */
const android9Input = (entries: { internal: string; external?: string }, touchpad = false) => [
  'Input Reader State:',
  ...(touchpad ? ['  Device 2: touchpad', '    Touch Input Mapper (mode - unscaled):', '      Viewport: displayId=-1, orientation=0, logicalFrame=[0, 0, 1920, 1080], physicalFrame=[0, 0, 1920, 1080], deviceSize=[1920, 1080]', '      SurfaceOrientation: 0'] : []),
  '  Device 4: touchscreen',
  '    Touch Input Mapper (mode - direct):',
  '      Viewport: displayId=0, orientation=1, logicalFrame=[0, 0, 2400, 1080], physicalFrame=[0, 0, 2400, 1080], deviceSize=[1080, 2400]',
  '      SurfaceOrientation: 1',
  '  Configuration:',
  '      Viewports:',
  '        ViewportInternal:',
  `          Viewport: displayId=${entries.internal}`,
  '        ViewportExternal:',
  `          Viewport: displayId=${entries.external ?? "-1, orientation=0, uniqueId='', logicalFrame=[0, 0, 0, 0], physicalFrame=[0, 0, 0, 0], deviceSize=[0, 0]"}`,
  '        ViewportVirtual:',
  '',
].join('\n');
const INTERNAL_TURNED = "0, orientation=1, uniqueId='local:0', logicalFrame=[0, 0, 2400, 1080], physicalFrame=[0, 0, 2400, 1080], deviceSize=[1080, 2400]";

test('Android 8–9 dumpsys input: rotation from the ViewportInternal entry, not a touchpad listed first; set entries count as displays', () => {
  assert.is(parseRotation(android9Input({ internal: INTERNAL_TURNED }, true)), 1);
  assert.is(parseRotation(android9Input({ internal: INTERNAL_TURNED })), 1);
  // Not set yet (displayId=-1): the touch mapper is all there is.
  assert.is(parseRotation(android9Input({ internal: "-1, orientation=0, uniqueId='', logicalFrame=[0, 0, 0, 0]" })), 1);
  assert.is(parseDefaultDisplayPanel(android9Input({ internal: INTERNAL_TURNED })), undefined, 'no panel id that --display-id would list');
  assert.is(parseViewportCount(android9Input({ internal: INTERNAL_TURNED })), 1);
  assert.is(parseViewportCount(android9Input({ internal: INTERNAL_TURNED, external: "1, orientation=0, uniqueId='local:1', logicalFrame=[0, 0, 1920, 1080]" })), 2, 'an HDMI display');
});

test('Android 8–9 answer --display-id with SurfaceFlinger\'s whole dump: its "Display 0 …" lines list no display', () => {
  const display = new CaptureDisplay();
  display.learnPanels('Wide-Color information:\nDisplay 0 color modes:\n    ColorMode::NATIVE (0)\n\nDisplay 0 HWC layers:\n Layer name\nDisplay 1 HWC layers:\n');
  assert.is(display.several, false);
  assert.is(display.argument, '');
});

test('wifi_on: airplane mode states count (2 on, 3 off), anything else is unknown', () => {
  assert.equal(['0\n', '1\n', '2\n', '3\n', 'null\n', ''].map(parseWifiOn), [false, true, true, false, undefined, undefined]);
});

test('resumed activity across releases', () => {
  assert.is(parseResumedPackage('  mResumedActivity: ActivityRecord{a u0 com.a.b/.Main t3}'), 'com.a.b');
  assert.is(parseResumedPackage('    topResumedActivity=ActivityRecord{b u0 org.x/org.x.Home t9}'), 'org.x');
  // Split screen: each task has its top resumed activity; the focused one is the global line after them.
  const split = '    topResumedActivity=ActivityRecord{b u0 org.x/.Home t9}\n    topResumedActivity=ActivityRecord{c u0 com.y/.Main t11}\n  ResumedActivity: ActivityRecord{c u0 com.y/.Main t11}\n';
  assert.is(parseResumedPackage(split), 'com.y');
});

test('capture display: the panel the default display is on (a foldable\'s active viewport), else the first listed', () => {
  const viewport = (id: string, active: number, displayId = 0, type = 'INTERNAL') =>
    `  Viewport ${type}: displayId=${displayId}, uniqueId=local:${id}, port=1, orientation=0, densityDpi=420 logicalFrame=[0, 0, 1080, 2092], physicalFrame=[0, 0, 1080, 2092], deviceSize=[1080, 2092], isActive=[${active}]`;
  const folded = [viewport('4619827259835644672', 0), viewport('4619827259835644673', 1)].join('\n');
  assert.is(parseDefaultDisplayPanel(folded), '4619827259835644673');
  assert.is(parseDefaultDisplayPanel([viewport('1', 0), viewport('2', 0)].join('\n')), undefined, 'screen off: no panel is on');
  assert.is(parseDefaultDisplayPanel(viewport('9', 1, 2, 'EXTERNAL')), undefined, 'an external display is not the default one');
  // Displays that can hold the default display or show next to it: a foldable's panels, a connected screen; virtual ones do not count.
  assert.is(parseViewportCount(folded), 2);
  assert.is(parseViewportCount(`${viewport('1', 1)}\n${viewport('v', 1, 3, 'VIRTUAL')}`), 1);
  assert.is(parseViewportCount(`${viewport('1', 1)}\n${viewport('9', 1, 2, 'EXTERNAL')}\n${viewport('1', 1)}`), 2, 'each display once');
  // A touch-navigation pad's mapper has a viewport of no display (setNonDisplayViewport): displayId -1, no uniqueId.
  const pad = '      Viewport INTERNAL: displayId=-1, uniqueId=, port=<none>, orientation=0, logicalFrame=[0, 0, 0, 0], physicalFrame=[0, 0, 0, 0], deviceSize=[0, 0], isActive=[0]';
  assert.is(parseViewportCount(`${viewport('1', 1)}\n${pad}`), 1);
  const display = new CaptureDisplay();
  display.learnPanels('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="Inner"\nDisplay 4619827259835644673 (HWC display 1): port=1 pnpId=GGL displayName="Outer"\n');
  assert.is(display.argument, ' -d 4619827259835644672', 'the first listed until the default display\'s panel is known');
  display.follow(folded);
  assert.is(display.argument, ' -d 4619827259835644673');
  display.follow([viewport('4619827259835644672', 0), viewport('4619827259835644673', 0)].join('\n'));
  assert.is(display.argument, ' -d 4619827259835644673', 'kept while the screen is off');
  const single = new CaptureDisplay();
  single.learnPanels('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n');
  single.follow(folded);
  assert.equal([single.several, single.argument], [false, '']);
});

test('launcher apps: literal labels, resource labels fall back to the package, versions joined', () => {
  const out = 'Activity #0:\n  ActivityInfo:\n    packageName=com.b\n    ApplicationInfo:\n      labelRes=0x7f nonLocalizedLabel=null icon=0x1\nActivity #1:\n    packageName=com.a\n      labelRes=0x0 nonLocalizedLabel=My App icon=0x0\n';
  assert.equal(parseLauncherApps(out, new Map([['com.a', '12']])), [
    { package: 'com.a', name: 'My App', version: '12', installed: true },
    { package: 'com.b', name: 'com.b', labelUnknown: true, version: '', installed: true },
  ]);
  // An activity with only an icon prints its own (null) label line before the app's literal one.
  const iconOnly = 'Activity #0:\n  ActivityInfo:\n    packageName=com.c\n    labelRes=0x0 nonLocalizedLabel=null icon=0x7f0a0001 banner=0x0\n    ApplicationInfo:\n      labelRes=0x0 nonLocalizedLabel=Example App icon=0x7f0a0001 banner=0x0\n';
  assert.equal(parseLauncherApps(iconOnly, new Map()), [{ package: 'com.c', name: 'Example App', version: '', installed: true }]);
  // Without the block headers (a shell printing only the lines clients read), each packageName= line is one activity.
  assert.equal(parseLauncherApps('packageName=com.b\n  packageName=com.a\npackageName=com.b\n', new Map([['com.a', '7']])), [
    { package: 'com.a', name: 'com.a', labelUnknown: true, version: '7', installed: true },
    { package: 'com.b', name: 'com.b', labelUnknown: true, version: '', installed: true },
  ]);
});

test('app versions: pm list --show-versioncode lines; dumpsys package blocks, the hidden factory versions left out', () => {
  assert.equal(parseListedVersions('package:com.a versionCode:12\npackage:com.b versionCode:3 uid:10042\npackage:com.c\n'), new Map([['com.a', '12'], ['com.b', '3']]));
  // Settings.dumpPackageLPr: Android 7 prints "versionCode=N targetSdk=N", Android 8+ puts minSdk between them.
  const dump = [
    'Packages:',
    '  Package [com.android.chrome] (3c1f2e8):',
    '    userId=10032',
    '    versionCode=307112552 targetSdk=26',
    '    versionName=61.0.3163.98',
    '  Package [com.a] (9d8e7f6):',
    '    versionCode=12 minSdk=21 targetSdk=28',
    '',
    'Hidden system packages:',
    '  Package [com.android.chrome] (1b2c3d4):',
    '    versionCode=277013150 targetSdk=24',
    '',
  ].join('\n');
  assert.equal(parseDumpedVersions(dump), new Map([['com.android.chrome', '307112552'], ['com.a', '12']]));
});

test('app version source: chosen by release, switched to the dump when pm refuses the option', () => {
  assert.is(new AppVersionSource('7.1.2').command(), 'dumpsys package packages');
  for (const release of ['8.0.0', '14', 'UpsideDownCake', '']) assert.is(new AppVersionSource(release).command(), 'pm list packages --show-versioncode', release);
  const unknown = new AppVersionSource('');
  assert.is(unknown.read('Error: Unknown option: --show-versioncode\n'), undefined);
  assert.is(unknown.command(), 'dumpsys package packages');
  assert.equal(unknown.read('Packages:\n  Package [com.a] (1):\n    versionCode=7 targetSdk=25\n'), new Map([['com.a', '7']]));
});

test('Android 5–6 launcher activities: MAIN + LAUNCHER filters of the Activity Resolver Table only', () => {
  // IntentResolver.dump with -f (Android 6): sections at 2 spaces, actions at 6, filters at 8, their lines at 10.
  const dump = [
    'Activity Resolver Table:',
    '  Schemes:',
    '      http:',
    '        41a7d4b com.web/.Deep filter 2b9e028',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.LAUNCHER"',
    '          Scheme: "http"',
    '',
    '  Non-Data Actions:',
    '      android.intent.action.MAIN:',
    '        3e2c9c1 com.home/.Home filter 1ea3a66',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.HOME"',
    '        5d1e0a2 com.b/com.b.ui.Start filter 77aa001',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.LAUNCHER"',
    '        9c0ffee com.s/.SubSettings filter 1234567',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.DEFAULT"',
    '        1a2b3c4 com.a/.Main filter 7654321',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.DEFAULT"',
    '          Category: "android.intent.category.LAUNCHER"',
    '        2b3c4d5 com.a/.Leak filter 7654322',
    '          Action: "android.intent.action.MAIN"',
    '          Category: "android.intent.category.LAUNCHER"',
    '      android.intent.action.VIEW:',
    '        6e7f809 com.c/.View filter 1111111',
    '          Category: "android.intent.category.LAUNCHER"',
    '',
    'Receiver Resolver Table:',
    '  Non-Data Actions:',
    '      android.intent.action.MAIN:',
    '        0d0d0d0 com.r/.Receiver filter 2222222',
    '          Category: "android.intent.category.LAUNCHER"',
    '',
  ].join('\n');
  assert.equal(parseLauncherActivities(dump), new Map([['com.b', ['com.b/com.b.ui.Start']], ['com.a', ['com.a/.Main', 'com.a/.Leak']]]));
  assert.equal(parseLauncherActivities(dump.replace(/^ {10}.*\n/gm, '')), new Map(), 'without -f no filter says LAUNCHER');
});

test('launcher source: query-activities from Android 7, the dump before; a device without cmd switches to the dump', () => {
  assert.match(new LauncherSource('6.0.1', 'S1').command(), /^pm list packages -e; echo __mobilebridge__; dumpsys package -f r$/);
  for (const release of ['7.0', '14', 'UpsideDownCake', '']) assert.match(new LauncherSource(release, 'S1').command(), /^cmd package query-activities /, release);
  const dump = 'Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n        1 com.a/.Main filter 2\n          Category: "android.intent.category.LAUNCHER"\n        3 com.off/.Main filter 4\n          Category: "android.intent.category.LAUNCHER"\n';
  const source = new LauncherSource('9', 'S1');
  assert.is(source.read('/system/bin/sh: cmd: not found\n', new Map()), undefined);
  assert.is(source.hasCmd, false);
  // com.off is disabled: `pm list packages -e` leaves it out, as the launcher's own query would.
  assert.equal(source.read(`package:com.a\npackage:com.x\n__mobilebridge__\n${dump}`, new Map([['com.a', '3']])), [
    { package: 'com.a', name: 'com.a', labelUnknown: true, version: '3', installed: true },
  ]);
});

test('raw screencap: 12- and 16-byte headers, BGRA swapped, garbage rejected', async () => {
  const pixels = Buffer.from([10, 20, 30, 255, 40, 50, 60, 255]);
  for (const header of [12, 16]) {
    const h = Buffer.alloc(header);
    h.writeUInt32LE(2, 0);
    h.writeUInt32LE(1, 4);
    h.writeUInt32LE(5, 8);
    const frame = parseRawScreencap(Buffer.concat([h, pixels]));
    assert.equal([frame.width, frame.height, frame.format], [2, 1, 5]);
    const png = await encodeRawImage(rgbaFromRawFrame(frame), isOpaqueFrame(frame));
    const { data } = await sharp(png.png).raw().toBuffer({ resolveWithObject: true });
    assert.equal([...data], [30, 20, 10, 255, 60, 50, 40, 255]);
  }
  assert.throws(() => parseRawScreencap(Buffer.from('/system/bin/sh: screencap: inaccessible or not found\n')), /does not hold a/);
});

test('screencap -p: text before the PNG signature is stripped', async () => {
  const png = await sharp({ create: { width: 3, height: 2, channels: 4, background: '#fff' } }).png().toBuffer();
  const shot = pngFromScreencap(Buffer.concat([Buffer.from('[Warning] Multiple displays were found\n'), png]));
  assert.equal([shot.width, shot.height, shot.png.equals(png)], [3, 2, true]);
  assert.throws(() => pngFromScreencap(Buffer.from('Killed')), /printed no PNG: Killed/);
});

test.run();

test('capture size vs wm size: the logical size in the capture\'s orientation', () => {
  assert.equal(logicalFrameSize({ width: 720, height: 1600 }, { width: 1080, height: 2400 }), { width: 720, height: 1600 });
  assert.equal(logicalFrameSize({ width: 720, height: 1600 }, { width: 2400, height: 1080 }), { width: 1600, height: 720 });
});

test('install refusals: code text to SPEC code; unknown codes left alone', () => {
  assert.is(installRefusal('INSTALL_FAILED_NO_MATCHING_ABIS: Failed to extract native libraries, res=-113', 's', 'a.apk')?.code, 'UNSUPPORTED');
  assert.is(installRefusal('INSTALL_PARSE_FAILED_MANIFEST_EMPTY: no manifest', 's', 'a.apk')?.code, 'INVALID_PARAMETER');
  assert.is(installRefusal('INSTALL_FAILED_INTERNAL_ERROR', 's', 'a.apk'), undefined);
  assert.is(installRefusal('something else', 's', 'a.apk'), undefined);
});

test('dumpsys power + window policy: awake, lock screen showing, secure', () => {
  const policy = 'WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    KeyguardServiceDelegate\n      showing=true\n      secure=true\n';
  assert.equal(parseScreenState(`  mWakefulness=Asleep\n__mb_state__\n${policy}`), { awake: false, locked: true, secure: true, trusted: false });
  assert.equal(parseScreenState('  mWakefulness=Awake\n__mb_state__\n    mShowingLockscreen=false\n'), { awake: true, locked: false, secure: false, trusted: false });
  assert.equal(parseScreenState('  mWakefulness=Dozing\n__mb_state__\n    mShowingLockscreen=true\n'), { awake: false, locked: true, secure: false, trusted: false });
  assert.is(parseScreenState('dumpsys: not found'), undefined);
});

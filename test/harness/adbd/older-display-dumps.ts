import type { DisplaySetup, PanelSize } from './displays.js';

/*
 * What Android 9 and older print where the driver reads displays (Android 10+ is in displays.ts).
 * Written from AOSP's android-8.0.0_r30, android-security-8.1.0_r92 and android-security-9.0.0_r74
 * (frameworks/native), android-7.1.2_r29 for what 7 lacks, and frameworks/base's cmds/input and
 * cmds/screencap of those releases. Only the lines that carry what a reader may look for are
 * printed; the values around them are plausible, not measured.
 *
 * Before Android 10 a phone's displays are SurfaceFlinger's built-in ones: 0 (the panel) and 1
 * (HDMI, `external` here), which is also LocalDisplayAdapter's uniqueId ("local:" + builtInDisplayId)
 * and the number `screencap -d` takes. There were no foldables, so those setups are refused.
 */

const INDENT = (n: number) => '  '.repeat(n);

function requireOlderSetup(setup: DisplaySetup): void {
  if (setup === 'folded' || setup === 'open') throw new Error(`the emulated Android 9 and older have no foldable (${setup}): that arrived with Android 10`);
}

/** DisplayViewport's fields as the dumps print them: frame in the current rotation, deviceSize unrotated. */
interface Viewport { displayId: number; orientation: number; uniqueId: string; width: number; height: number; deviceWidth: number; deviceHeight: number }

function viewportOf(displayId: number, uniqueId: string, rotation: number, natural: PanelSize): Viewport {
  const turned = rotation % 2 === 1;
  return {
    displayId, orientation: rotation, uniqueId,
    width: turned ? natural.height : natural.width, height: turned ? natural.width : natural.height,
    deviceWidth: natural.width, deviceHeight: natural.height,
  };
}

/** DisplayViewport's constructor: displayId ADISPLAY_ID_NONE (-1), everything else 0 or empty. */
const UNSET: Viewport = { displayId: -1, orientation: 0, uniqueId: '', width: 0, height: 0, deviceWidth: 0, deviceHeight: 0 };

const frames = (v: Viewport) =>
  `logicalFrame=[0, 0, ${v.width}, ${v.height}], physicalFrame=[0, 0, ${v.width}, ${v.height}], deviceSize=[${v.deviceWidth}, ${v.deviceHeight}]`;

/**
 * One touch device's InputDevice::dump with its TouchInputMapper::dump (dumpSurface's lines).
 * `follows`: a touchscreen on the internal display, whose viewport and SurfaceOrientation follow the
 * rotation (TouchInputMapper::configureSurface, orientationAware by default). Otherwise a touchpad:
 * DEVICE_MODE_UNSCALED with setNonDisplayViewport, so orientation 0 whatever the display does.
 */
function touchDevice(id: number, name: string, follows: boolean, viewport: Viewport): string {
  const v = follows ? viewport : { ...UNSET, width: 1920, height: 1080, deviceWidth: 1920, deviceHeight: 1080 };
  return [
    `${INDENT(1)}Device ${id}: ${name}`,
    `${INDENT(2)}Generation: ${id + 1}`,
    `${INDENT(2)}IsExternal: false`,
    `${INDENT(2)}HasMic:     false`,
    `${INDENT(2)}Sources: 0x${(follows ? 0x1002 : 0x100008).toString(16).padStart(8, '0')}`,
    `${INDENT(2)}KeyboardType: 0`,
    `${INDENT(2)}Touch Input Mapper (mode - ${follows ? 'direct' : 'unscaled'}):`,
    `${INDENT(3)}Viewport: displayId=${v.displayId}, orientation=${v.orientation}, ${frames(v)}`,
    `${INDENT(3)}SurfaceWidth: ${v.width}px`,
    `${INDENT(3)}SurfaceHeight: ${v.height}px`,
    `${INDENT(3)}SurfaceLeft: 0`,
    `${INDENT(3)}SurfaceTop: 0`,
    `${INDENT(3)}SurfaceOrientation: ${v.orientation}`,
    '',
  ].join('\n');
}

/**
 * `dumpsys input` before Android 10 (InputReader::dump): each device, the touch mapper's surface
 * lines among them, then "Configuration:". From 8.0, InputReaderConfiguration::dump ends it with the
 * viewports the window manager set: "ViewportInternal:", "ViewportExternal:" (each one
 * dumpViewport line, a DisplayViewport() with displayId=-1 when unset) and "ViewportVirtual:". 7.x
 * and older print no viewport list, so only SurfaceOrientation tells the rotation there.
 * `touchpadFirst`: a touch device that does not follow the display is listed before the touchscreen.
 */
export function olderInputDump(setup: DisplaySetup, sdk: number, rotation: number, natural: PanelSize, touchpadFirst: boolean): string {
  requireOlderSetup(setup);
  const internal = viewportOf(0, 'local:0', rotation, natural);
  const devices = [touchDevice(4, 'mb_virtual_touchscreen', true, internal)];
  if (touchpadFirst) devices.unshift(touchDevice(2, 'mb_virtual_touchpad', false, internal));
  const config = [
    `${INDENT(1)}Configuration:`,
    `${INDENT(2)}ExcludedDeviceNames: []`,
    `${INDENT(2)}VirtualKeyQuietTime: 0.0ms`,
    `${INDENT(2)}PointerGesture:`,
    `${INDENT(3)}Enabled: true`,
  ];
  if (sdk >= 26) {
    // HDMI: SurfaceFlinger's built-in display 1, which DisplayManager gives the next logical display id.
    const external = setup === 'external' ? viewportOf(1, 'local:1', 0, natural) : UNSET;
    const line = (v: Viewport) => `${INDENT(5)}Viewport: displayId=${v.displayId}, orientation=${v.orientation}, uniqueId='${v.uniqueId}', ${frames(v)}`;
    config.push(`${INDENT(3)}Viewports:`, `${INDENT(4)}ViewportInternal:`, line(internal), `${INDENT(4)}ViewportExternal:`, line(external), `${INDENT(4)}ViewportVirtual:`);
  }
  return `INPUT MANAGER (dumpsys input)\n\nEvent Hub State:\n  BuiltInKeyboardId: -2\n\nInput Reader State:\n${devices.join('')}${config.join('\n')}\n\nInput Dispatcher State:\n  DispatchEnabled: 1\n`;
}

/**
 * `dumpsys SurfaceFlinger <anything it does not know>` before Android 10, `--display-id` included:
 * SurfaceFlinger::doDump matches only its own options (--list, --latency, …) and otherwise runs
 * dumpAllLocked, the whole dump. Among it are dumpWideColorInfo's "Display <hwcId> color modes:" and
 * the HWC layer minidump's "Display <hwcId> HWC layers:", once per display with an HWC id.
 */
export function olderSurfaceFlingerDump(setup: DisplaySetup): string {
  requireOlderSetup(setup);
  const hwcIds = setup === 'external' ? [0, 1] : [0];
  const colorModes = hwcIds.map((id) => `Display ${id} color modes:\n    ColorMode::NATIVE (0)\n    Current color mode: ColorMode::NATIVE (0)\n`).join('');
  const layers = hwcIds.map((id) => `Display ${id} HWC layers:\n-------------------------------------------------------------------------------\n Layer name\n           Z |  Comp Type |   Disp Frame (LTRB) |          Source Crop (LTRB)\n-------------------------------------------------------------------------------\n\n`).join('');
  return [
    'Build configuration: [sf PRESENT_TIME_OFFSET=0 FORCE_HWC_FOR_RBG_TO_YUV=1 MAX_VIRT_DISPLAY_DIM=0 RUNNING_WITHOUT_SYNC_FRAMEWORK=0 NUM_FRAMEBUFFER_SURFACE_BUFFERS=3] [libui] [libgui]\n',
    `\nWide-Color information:\nhasWideColorDisplay: 0\nDisplayColorSetting: Managed\n${colorModes}\n`,
    'Sync configuration: [using: EGL_ANDROID_native_fence_sync EGL_KHR_wait_sync]\n',
    `Visible layers (count = 7)\n\nDisplays (${hwcIds.length} entries)\n`,
    hwcIds.map((id) => `+ DisplayDevice: ${id === 0 ? 'Built-in Screen' : 'HDMI Screen'}\n   type=${id}, hwcId=${id}, layerStack=${id}, powerMode=2\n`).join(''),
    '\nSurfaceFlinger global state:\n  orientation=0, isDisplayOn=1\n\n',
    layers,
    'h/w composer state:\n  h/w composer enabled\n',
  ].join('');
}

/**
 * `screencap -d <id>` before Android 10: atoi(id) is a built-in display (0 the panel, 1 HDMI);
 * SurfaceComposerClient::getBuiltInDisplay has no handle for any other, and screencap says so on
 * stderr, exit 1. Undefined when it captures (0 the panel; 1 the HDMI display, which shows the phone
 * here as the 10+ emulation's external display does).
 */
export function olderScreencapRefusal(setup: DisplaySetup, id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const n = Number.parseInt(id, 10) | 0;
  return n === 0 || (n === 1 && setup === 'external') ? undefined : `Unable to get handle for display ${n}\n`;
}

/** The sources in `input`'s usage: Input.java's SOURCES HashMap keys, in its iteration order. */
const INPUT_SOURCES = ['dpad', 'keyboard', 'mouse', 'touchpad', 'gamepad', 'touchnavigation', 'joystick', 'touchscreen', 'stylus', 'trackball'].map((s) => `      ${s}`);
/** The commands Input.java lists on Android 9 and 10 alike (10 adds motionevent after them). */
const INPUT_COMMANDS = [
  '      text <string> (Default: touchscreen)',
  '      keyevent [--longpress] <key code number or name> ... (Default: keyboard)',
  '      tap <x> <y> (Default: touchscreen)',
  '      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)',
  '      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)',
  '      press (Default: trackball)',
  '      roll <dx> <dy> (Default: trackball)',
];

/**
 * `input motionevent …` before Android 10: Input.java (run under app_process) knows text, keyevent,
 * tap, swipe, draganddrop, press and roll; any other command prints "Error: Unknown command: <cmd>"
 * and showUsage, all on System.err, and main returns normally, so the exit code is 0. The sources
 * are a HashMap's keys, printed in its iteration order. (This is Android 9's text; older releases'
 * usage may lack the draganddrop line, which nothing reads.)
 */
export function olderInputUnknownCommand(command: string): string {
  return [
    `Error: Unknown command: ${command}`,
    'Usage: input [<source>] <command> [<arg>...]',
    '',
    'The sources are: ',
    ...INPUT_SOURCES,
    '',
    'The commands and default sources are:',
    ...INPUT_COMMANDS,
    '',
  ].join('\n');
}

/**
 * `input motionevent <action> …` on Android 10 with an action other than DOWN, UP or MOVE (CANCEL
 * among them): that release's Input.java (a BaseCommand, with the `-d` option) throws
 * IllegalArgumentException("Unknown motionevent " + action) before injecting anything, and
 * BaseCommand.run prints the usage, a blank line and "Error: " + the message on System.err and
 * returns, so the exit code is 0. The usage lists `motionevent <DOWN|UP|MOVE>`.
 */
export function android10UnknownMotionEvent(action: string): string {
  return [
    'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]',
    '',
    'The sources are: ',
    ...INPUT_SOURCES,
    '',
    '-d: specify the display ID.',
    '      (Default: -1 for key event, 0 for motion event if not specified.)',
    'The commands and default sources are:',
    ...INPUT_COMMANDS,
    '      motionevent <DOWN|UP|MOVE> <x> <y> (Default: touchscreen)',
    '',
    `Error: Unknown motionevent ${action}`,
    '',
  ].join('\n');
}

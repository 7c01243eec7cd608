import type { UiElement } from '../../src/engine/types.js';
import type { ScreenOptions } from '../../src/protocol/methods.js';
import type { StreamSource } from '../../src/protocol/screen-formats.js';
import { AccessProblem } from './access-problem.js';
import { ActivityPanel } from './activity-panel.js';
import { AppLauncher } from './app-launcher.js';
import { connectWithRetry, type ViewerConnectionState } from './connection.js';
import { ControlNotice } from './control-notice.js';
import { addressShowing, firstDevice } from './device-address.js';
import { bridgeEndpoint } from './endpoint.js';
import { LockBadge } from './lock-badge.js';
import { OfflineBanner } from './offline-banner.js';
import { PairDebugging } from './pair-debugging.js';
import { diagnoseReconnects } from './reconnect-diagnosis.js';
import { DeviceList } from './device-list.js';
import { DeviceGrid } from './device-grid.js';
import { GridMode } from './grid-mode.js';
import { byId } from './dom.js';
import { elementName, ElementsPanel } from './elements-panel.js';
import { InputQueue } from './input-queue.js';
import { copyText, setupViewSwitch } from './inspector-controls.js';
import { InspectorDetails } from './inspector.js';
import { LiveControl } from './live-control.js';
import { bindTextBox } from './text-box.js';
import { elementAt } from '../../src/engine/hit-test.js';
import { PickLayer } from './pick-layer.js';
import { canDecodeH264 } from './h264-decoder.js';
import { ScreenPainter } from './painter.js';
import { RecorderControl } from './recorder-control.js';
import { RunPanel } from './run-panel.js';
import { ScreenView } from './screen-view.js';
import { formatMs } from './stats.js';
import { setupTabs } from './tabs.js';
import { ValidatorPanel } from './validator-panel.js';
import { Viewer } from './viewer.js';

const STATE_TEXT: Record<ViewerConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
  failed: 'Offline',
};

const connection = byId('connection');
const canvas = byId<HTMLCanvasElement>('screen');
const placeholder = byId('screen-placeholder');
const toast = byId('toast');
let toastTimer: ReturnType<typeof setTimeout> | undefined;

function notice(message: string): void {
  toast.textContent = message;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), 6000);
}

// Honest states (issue 17): greyed screen and banner while offline, a page for token problems.
const offline = new OfflineBanner(byId('screen-wrap'), byId('offline-banner'), byId('offline-detail'));
const access = new AccessProblem();

function showState(state: ViewerConnectionState, detail?: string): void {
  offline.show(state, detail);
  connection.dataset.state = state;
  connection.textContent = STATE_TEXT[state];
  connection.title = detail ?? '';
  if (detail) notice(`Not connected: ${detail}`);
}

/** H.264 when this browser decodes it (and `?video=0` does not say otherwise), else JPEG. */
let videoFormat: 'h264' | 'jpeg' = 'jpeg';

/**
 * Frames no wider than the screen can show (in device pixels of the display), to spare bandwidth.
 * Video comes at the device stream's size; maxWidth then applies to the screenshots it may fall back to.
 */
function screenOptions(): ScreenOptions {
  const wrap = byId('screen-wrap');
  const longest = Math.max(wrap.clientWidth, wrap.clientHeight) * (window.devicePixelRatio || 1);
  return { maxFps: 30, format: videoFormat, quality: 80, maxWidth: Math.min(1440, Math.max(360, Math.ceil(longest / 120) * 120)) };
}

function sourceLabel(source: StreamSource): string {
  if (source === 'scrcpy') return 'scrcpy';
  if (source === 'wda-mjpeg') return 'mjpeg';
  return 'screenshots';
}

function outlineLabel(e: UiElement): string {
  return `${e.type} · ${elementName(e)}`;
}

function download(png: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function start(): Promise<void> {
  showState('connecting');
  if (new URLSearchParams(location.search).get('video') !== '0' && (await canDecodeH264())) videoFormat = 'h264';
  const client = await connectWithRetry(location, showState, (d) => access.show(d));
  access.hide();
  client.onState((s) => showState(s));
  showState(client.state);
  diagnoseReconnects(client, bridgeEndpoint(location).token, (d) => {
    if (!d) return access.hide();
    offline.show(client.state, d.message);
    access.show(d);
  });
  byId('session-label').textContent = client.session ? `session ${client.session.slice(0, 6)}` : '';
  client.onSession((e) => (byId('session-label').textContent = `session ${e.session.slice(0, 6)}`));

  let activityVisible = false;
  const activity = new ActivityPanel(byId('activity-feed'), byId('activity-empty'), byId('activity-unread'), () => activityVisible);
  setupTabs(document.querySelector<HTMLElement>('[role="tablist"]')!, (panel) => {
    activityVisible = panel === 'view-activity';
    if (activityVisible) activity.markRead();
  });

  // Assigned right below; the panels' callbacks only run after that.
  let viewer!: Viewer;
  /** What the pointer (or focus) is on, on the screen or in the list. */
  let hovered: UiElement | undefined;
  /**
   * Outlines the hovered element, else the selected one, as the latest listing has it: the screen
   * scrolls and rotates under a still pointer, and an element that left the screen has no outline.
   */
  const drawOutline = () => {
    const listed = (e: UiElement | undefined) => e && viewer.elements.find((x) => x.id === e.id);
    const outlined = listed(hovered) ?? listed(elementsPanel.selected);
    screen.highlight(outlined && { rect: outlined, label: outlineLabel(outlined) });
  };
  const showElement = (e: UiElement | undefined) => {
    hovered = e;
    elementsPanel.show(e);
    drawOutline();
  };
  const inspector = new InspectorDetails(byId('element-details'), (e) => (viewer.current ? client.request('elements.describe', { device: viewer.current.id, element: e.id }) : Promise.reject(new Error('no device chosen'))), copyText);
  const elementNote = byId('element-note');
  const elementsPanel = new ElementsPanel(byId('element-list'), byId('element-tree'), inspector, byId('elements-count'), {
    hover: showElement,
    activate: (e) => void viewer.tapElement(e),
  });
  setupViewSwitch(byId('btn-elements-list'), byId('btn-elements-tree'), byId('element-list'), byId('element-tree'));
  new PickLayer(byId('pick-layer'), byId('btn-pick'), canvas, () => screen.currentFit(), {
    hover: (p) => viewer.hoverAt(p),
    pick: (p) => {
      const picked = elementAt(viewer.elements, p);
      if (picked && picked.id !== elementsPanel.selected?.id) elementsPanel.select(picked);
    },
    changed: (on) => screen.setInputBlocked(on ? 'Not sent: Pick on screen is on, so the screen takes no input; press Esc or ◎ Pick on screen to type on the device again.' : undefined),
  });
  const painter = new ScreenPainter(canvas, (header) => viewer.painted(header, performance.now()), notice, (reason) => {
    if (videoFormat === 'jpeg') return;
    videoFormat = 'jpeg';
    notice(`${reason}; switching to JPEG frames`);
    void viewer.restartScreen();
  });
  const input = new InputQueue(
    () => viewer.current?.id,
    async (call) => {
      await viewer.call(call);
    },
    () => live.touches.lifted(),
  );
  // Issue 17 item 1: drags streamed, wheel, right click, shortcuts, zoom, tap markers.
  const live = new LiveControl({
    wrap: byId('screen-wrap'),
    canvas,
    zoomButton: byId<HTMLButtonElement>('btn-zoom'),
    notice,
    queue: (k) => {
      screen.releaseHeldTap();
      input.push(k);
    },
    settle: () => {
      screen.releaseHeldTap();
      return input.sent();
    },
    rotate: () => byId('btn-rotate').click(),
    screenshot: () => byId('btn-screenshot').click(),
  });
  const screen = new ScreenView(byId('screen-wrap'), canvas, byId('outline'), byId('outline-label'), {
    // Taps and keys share one queue, so each goes out after what the user did before it.
    gesture: (g) => {
      const size = screen.deviceSize;
      if (size) input.push({ kind: 'gesture', gesture: g, screen: size });
    },
    key: (k) => input.push(k),
    hover: (p) => viewer.hoverAt(p),
    drag: (d) => live.drag(d),
    wheel: (at, dx, dy) => live.wheel(at, dx, dy),
    secondary: () => live.secondary(),
    blocked: notice,
  });

  // While All screens is open no device is shown: nothing may act on the one chosen before.
  const gridMode = new GridMode({
    title: byId('stage-title'),
    deviceName: byId('screen-device'),
    hint: byId('grid-hint'),
    controls: [byId('device-toolbar'), byId('recorder'), byId('lock-badge'), byId('view-elements'), byId('run-panel')],
  });

  const badge = new LockBadge(byId('lock-badge'), byId('lock-text'), byId<HTMLButtonElement>('btn-take-control'), byId<HTMLButtonElement>('btn-release'));
  // A lock this page lost: the notice's button takes it again through the pair-debugging object below.
  const lostControl = new ControlNotice(byId('control-lost'), byId('control-lost-text'), byId<HTMLButtonElement>('btn-retake-control'), byId<HTMLButtonElement>('btn-continue-without-control'), () => void pair.takeControl());
  const pair = new PairDebugging(client, activity, badge, lostControl, notice);
  byId('btn-take-control').addEventListener('click', () => void pair.takeControl());
  byId('btn-release').addEventListener('click', () => void pair.release());

  const devices = new DeviceList(byId('device-list'), byId('devices-empty'), (d) => {
    // Choosing a device in the list shows it, also while the grid is open.
    showGrid(false);
    void viewer.choose(d);
  }, byId('device-notes'));
  viewer = new Viewer(
    client,
    {
      deviceChosen: (d) => {
        devices.markChosen(d?.id);
        history.replaceState(history.state, '', addressShowing(location.href, d?.id));
        byId('screen-device').textContent = d ? `— ${d.model} (${d.id})` : '';
        byId<HTMLButtonElement>('btn-back').title = d?.os === 'iOS' ? 'Back: iOS has no BACK button, so this swipes from the left edge (Alt+B, right click)' : 'BACK (Alt+B, right click)';
        canvas.setAttribute('aria-label', `Screen of ${d?.id ?? 'no device'}. Click to tap, drag to move the content, wheel to scroll, right click for Back, hold to long-press (keep holding and drag to move what it picked up), double-click to double-tap, Ctrl+drag to pinch; type to send keys (Tab goes to the device, Shift+Tab leaves the screen).`);
        activity.clear();
        input.clear();
        if (elementsPanel.selected) elementsPanel.select(undefined);
        launcher.deviceChanged();
        recorder.deviceChanged();
      },
      paintFrame: (f) => painter.push(f),
      clearScreen: () => {
        painter.clear();
        screen.setDeviceSize(undefined);
        screen.highlight(undefined);
        placeholder.textContent = 'Waiting for the first frame…';
        placeholder.hidden = false;
      },
      screenSize: (size) => {
        placeholder.hidden = true;
        screen.setDeviceSize(size);
      },
      elements: (list, fresh, note) => {
        elementsPanel.render(list, fresh);
        // The device's word on the listing (a crash dialog over the app, a tree cut short) stays in view while it holds.
        elementNote.textContent = note ?? '';
        elementNote.hidden = !note;
        drawOutline();
      },
      hovered: showElement,
      activity: (a) => {
        activity.add(a, client.session);
        live.activity(a, a.session === client.session);
      },
      notice,
      inputRefusal: () => gridMode.refusal() ?? lostControl.refusal(),
      lockAdvice: () => badge.advice(),
      watching: (d) => void pair.watch(d.id),
    },
    screenOptions,
  );

  live.bind(viewer, screen);
  client.onState((s) => {
    if (s !== 'open') live.touches.abandon();
  });
  byId('btn-back').addEventListener('click', () => void live.back());
  byId('btn-home').addEventListener('click', () => live.home());
  bindTextBox(byId<HTMLInputElement>('type-text'), byId<HTMLButtonElement>('btn-type-text'), (text) => {
    if (!viewer.current) return;
    // After a click still held for the double-click wait: the text goes to the field that click focuses.
    screen.releaseHeldTap();
    input.push({ kind: 'text', text });
  });
  byId('btn-volume-down').addEventListener('click', () => live.volume('VOLUME_DOWN'));
  byId('btn-volume-up').addEventListener('click', () => live.volume('VOLUME_UP'));
  byId('btn-rotate').addEventListener('click', () => void viewer.rotate());
  byId('btn-screenshot').addEventListener('click', async () => {
    // Alt+P clicks the button even while the grid makes it inert.
    const refused = gridMode.refusal();
    if (refused) return notice(refused);
    const shot = await viewer.screenshot();
    if (shot) download(shot.png, `${shot.device}-${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  });

  const validator = new ValidatorPanel(byId<HTMLFormElement>('validate-form'), byId<HTMLTextAreaElement>('scenario-text'), byId<HTMLInputElement>('scenario-file'), byId('validate-result'), (scenario, file) =>
    client.request('scenarios.validate', file ? { scenario, file } : { scenario }),
  );
  byId('btn-new-scenario').addEventListener('click', () => void validator.newScenario(viewer.current?.os === 'iOS' ? 'ios' : 'android'));

  // Record and Run (issue 17 item 3): own modules; here only bound to the page.
  const watched = () => viewer.current?.id;
  const launcher = new AppLauncher(byId<HTMLSelectElement>('app-launch'), watched, {
    look: (tool, parameters) => viewer.look({ tool, parameters }),
    act: (tool, parameters) => viewer.call({ tool, parameters }),
  });
  const recorder = new RecorderControl(
    client,
    {
      button: byId<HTMLButtonElement>('btn-record'),
      status: byId('record-status'),
      steps: byId('record-steps'),
      stepsUnit: byId('record-steps-unit'),
      startDialog: byId<HTMLDialogElement>('record-start'),
      nameInput: byId<HTMLInputElement>('record-name'),
      startButton: byId<HTMLButtonElement>('record-go'),
      doneDialog: byId<HTMLDialogElement>('record-done'),
      doneBody: byId('record-done-body'),
      downloadButton: byId<HTMLButtonElement>('record-download'),
      validateButton: byId<HTMLButtonElement>('record-validate'),
      lastButton: byId<HTMLButtonElement>('btn-last-recording'),
      left: {
        root: byId('record-left'),
        text: byId('record-left-text'),
        continueButton: byId<HTMLButtonElement>('record-left-continue'),
        discardButton: byId<HTMLButtonElement>('record-left-discard'),
        leaveButton: byId<HTMLButtonElement>('record-left-leave'),
      },
    },
    watched,
    {
      notice,
      // Shown in the Validate tab and validated, unless the user keeps the text they were editing there.
      openInValidator: (text, file) => validator.open(text, file) && (byId('tab-validate').click(), true),
    },
  );
  new RunPanel(
    client,
    { runButton: byId<HTMLButtonElement>('btn-run'), cancelButton: byId<HTMLButtonElement>('btn-cancel-run'), paramsForm: byId<HTMLFormElement>('run-params'), result: byId('run-result'), text: byId<HTMLTextAreaElement>('scenario-text'), showRefusal: (envelope, scenario) => validator.showRunRefusal(envelope, scenario) },
    watched,
    () => badge.advice(),
  );

  setInterval(() => {
    const now = performance.now();
    byId('fps').textContent = viewer.current ? viewer.fps.rate(now).toFixed(0) : '–';
    byId('latency').textContent = formatMs(viewer.frameLatency.ms);
    byId('rtt').textContent = formatMs(viewer.callLatency.ms);
    const source = byId('source');
    const stream = viewer.current ? viewer.stream : undefined;
    source.textContent = stream ? `${sourceLabel(stream.source)}${stream.fallback_reason ? ` — ${stream.fallback_reason}` : ''}` : '–';
    source.dataset.source = stream?.source ?? '';
    source.dataset.format = stream?.format ?? '';
    source.title = stream?.fallback_reason ? `no live video: ${stream.fallback_reason}` : '';
    source.classList.toggle('fallback', Boolean(stream?.fallback_reason));
  }, 500);

  const gridButton = byId<HTMLButtonElement>('btn-grid');
  function showGrid(on: boolean): void {
    grid.show(on);
    gridMode.set(on);
    gridButton.setAttribute('aria-pressed', String(on));
    byId('screen-wrap').closest('.stage')?.classList.toggle('grid-on', on);
  }
  const grid = new DeviceGrid(client, byId('device-grid'), (d) => {
    showGrid(false);
    void viewer.choose(d);
  }, notice);
  gridButton.addEventListener('click', () => showGrid(!grid.visible));

  const list = await client.request('devices.list', {});
  devices.set(list.devices);
  devices.notes(list.notes);
  grid.setDevices(devices.all);
  // A source that stops or starts answering: its note comes with the change.
  client.on('devices.changed', (c) => {
    devices.change(c.added, c.removed);
    grid.setDevices(devices.all);
    if (c.notes) devices.notes(c.notes);
  });
  // A new session (the bridge restarted): device changes in between were never announced. (The grid's
  // tiles follow the subscriptions the client re-created by themselves.)
  client.onSession((e) => {
    if (e.initial || e.resumed) return;
    client.request('devices.list', {}).then((l) => (devices.set(l.devices), devices.notes(l.notes), grid.setDevices(devices.all)), () => undefined);
  });
  // ?device=ID opens that device directly (links from the CLI or a colleague).
  const first = firstDevice(list.devices, new URLSearchParams(location.search).get('device'));
  if (first.missing) notice(first.missing);
  if (first.device) await viewer.choose(first.device);
}

start().catch((err: unknown) => {
  showState('failed');
  notice(`The viewer failed to start: ${err instanceof Error ? err.message : String(err)}. Reload the page.`);
});

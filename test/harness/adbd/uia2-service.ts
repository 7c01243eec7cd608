import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { DeviceStream } from './adbd.js';

/*
 * An emulated appium-uiautomator2-server (io.appium.uiautomator2.server), as its source answers
 * (appium/appium-uiautomator2-server, app/src/main/java/io/appium/uiautomator2/…):
 * - Started by `am instrument -w … io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner`:
 *   the one test, AppiumUiAutomator2Server.startServer (androidTestServer/…), starts the server and
 *   waits on ServerInstrumentation's shutdown latch. The instrumentation runs in its own process:
 *   closing the host's `shell:` (v1) stream leaves it running and holding the device's one
 *   UiAutomation connection (adbd sends no SIGHUP to a v1 shell, and ActivityManager does not stop an
 *   instrumentation whose `am` went away). It ends when its process dies (a crash, `am force-stop` of
 *   the server package, a new `am instrument` of it, since ActivityManager force-stops the target
 *   first: `am` prints "INSTRUMENTATION_RESULT: shortMsg=Process crashed.") or on DELETE /session
 *   (DeleteSession stops the server, the test returns: JUnit's "OK (1 test)").
 * - HTTP on device port 6790 (ServerHandler strips a leading /wd/hub): GET /status → {sessionId:
 *   "None", value: {ready, message, build}}; POST /session → {sessionId, value: {sessionId,
 *   capabilities}} replacing any earlier session (AppiumUIA2Driver holds one); GET …/source → the
 *   XML (class-named elements, "displayed"); GET …/element/active → an element or 404 "no such
 *   element"; POST …/element/:id/value {text, replace} (404 "stale element reference" when the view
 *   left the tree meanwhile: ElementsCache.restore has no locator for an active element); DELETE /session/:id. An unknown session id
 *   is 404 "invalid session id" (SafeRequestHandler), an unknown route 404 "unknown command", any
 *   other exception 500 "unknown error"; errors are {sessionId, value: {error, message, stacktrace}}.
 * Without the two APKs, `am instrument` fails as ActivityManager reports a missing instrumentation.
 */

export const UIA2_PACKAGES = ['io.appium.uiautomator2.server', 'io.appium.uiautomator2.server.test'];
export const UIA2_PORT = 6790;
const COMPONENT = 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';
const TEST_CLASS = 'io.appium.uiautomator2.server.test.AppiumUiAutomator2Server';
/** What androidx UiAutomator throws once the UiAutomation connection is gone (UiAutomation.throwIfNotConnectedLocked). */
const NOT_CONNECTED = 'java.lang.IllegalStateException: UiAutomation not connected, UiAutomation@5b2a1f3[id=-1, flags=0]';

/** What the device's own work costs under the phone timing model (0 under the instant one). */
export interface Uia2Timing {
  /** From `am instrument` to the server answering /status. */
  startMs: number;
  /** One /source: a walk of the warm accessibility tree. */
  sourceMs: number;
}

/** One run of the instrumentation process: from `am instrument` until the process ends. */
interface Run {
  stream: DeviceStream;
  server?: http.Server;
  ended: boolean;
  end: (output: string) => void;
  done: Promise<string>;
}

export class EmulatedUia2 {
  private run: Run | undefined;
  private port = 0;
  private session: string | undefined;
  requests: string[] = [];
  /** Ugly states a test sets: /source never answers (a wedged server, or a walk that takes for ever). */
  sourceStalls = false;
  /** The process runs and answers /status, but its UiAutomation connection is gone (the `am` that owned it died, or the system dropped it). */
  uiAutomationLost = false;
  /**
   * `am` is a JVM of its own: ActivityManager sees the request (and force-stops a server still
   * running) only after it has started, 0.3–1 s on phones. A test holds that moment with a gate.
   */
  amGate: Promise<void> | undefined;
  /** The focused element is not a text field (a button reached with the D-pad, a WebView's container): ActiveElement finds it, setText fails. */
  focusedTakesNoText = false;
  /**
   * The next this-many `value` requests find the focused view gone between `element/active` and
   * them (the form re-rendered): ElementsCache.get cannot restore an element cached without a
   * locator and answers 404 "stale element reference".
   */
  staleFocus = 0;
  /**
   * The focused element is a progress control (a SeekBar reached with the D-pad): SendKeysToElement
   * sets its progress from the text as a float, and text that is no number throws
   * IllegalArgumentException, which SafeRequestHandler answers as 400 "invalid argument".
   */
  focusedIsProgress = false;
  /** AppiumResponse.renderTo could not serialise the answer (a JsonSyntaxException): it sends `{}` with HTTP 500. */
  renderFails = false;

  constructor(
    private readonly phone: VirtualDevice,
    private readonly dumpXml: () => string,
    readonly timing: Uia2Timing,
  ) {}

  /**
   * Whether the instrumentation holds the device's one UiAutomation connection: from its start
   * (UiDevice.getInstance connects before the server listens) until its process ends.
   */
  get holdsUiAutomation(): boolean {
    return this.run !== undefined && !this.uiAutomationLost;
  }

  get running(): boolean {
    return this.run?.server !== undefined;
  }

  get installed(): boolean {
    return UIA2_PACKAGES.every((p) => this.phone.installedApps.some((a) => a.package === p));
  }

  /** The `am instrument -w` shell stream: prints what `am` prints, and ends when the instrumentation does. */
  async instrument(stream: DeviceStream): Promise<void> {
    if (!this.installed) {
      await stream.write(`INSTRUMENTATION_STATUS: id=ActivityManagerService\nINSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${COMPONENT}}\nINSTRUMENTATION_STATUS_CODE: -1\nandroid.util.AndroidException: INSTRUMENTATION_FAILED: ${COMPONENT}\n`);
      return;
    }
    await this.amGate;
    // ActivityManagerService.startInstrumentation force-stops the target package first.
    await this.kill();
    let end!: (output: string) => void;
    const done = new Promise<string>((resolve) => (end = resolve));
    const run: Run = { stream, ended: false, end: (output) => ((run.ended = true), end(output)), done };
    this.run = run;
    this.uiAutomationLost = false;
    // Non-raw `am instrument` prints the runner's stream results: the class as its test starts.
    const say = (text: string) => (stream.closed ? Promise.resolve() : stream.write(text).catch(() => undefined));
    await say(`\n${TEST_CLASS}:`);
    await Promise.race([sleep(this.timing.startMs), done]);
    if (!run.ended) run.server = await this.listen();
    await say(await done);
  }

  /** A `tcp:6790` stream through adb: bridged to the server, or refused when it is not running. */
  bridge(stream: DeviceStream): Promise<void> | undefined {
    if (!this.run?.server) return undefined;
    return new Promise<void>((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1');
      let writing = Promise.resolve();
      socket.on('data', (chunk: Buffer) => {
        writing = writing.then(() => stream.write(chunk)).catch(() => void socket.destroy());
      });
      stream.on('data', (chunk: Buffer) => socket.write(chunk));
      stream.once('close', () => socket.destroy());
      socket.on('error', () => undefined);
      socket.on('close', () => void writing.then(resolve, resolve));
    });
  }

  /** `am force-stop` of either server package: the process dies, as in a crash. */
  forceStop(): Promise<void> {
    return this.kill();
  }

  /** The server process dies (a crash, the low-memory killer): connections drop and `am` reports the crash. */
  crash(): Promise<void> {
    return this.kill();
  }

  /** Kills the server if it runs (tests clean up with it; so does closing the phone). */
  stop(): Promise<void> {
    return this.kill();
  }

  /** Another client's POST /session: AppiumUIA2Driver keeps one session, so the earlier id is no longer known. */
  replaceSession(): void {
    this.session = randomUUID();
  }

  private async kill(): Promise<void> {
    const run = this.run;
    if (!run) return;
    await this.finish(run, 'INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n');
  }

  private async finish(run: Run, output: string): Promise<void> {
    if (this.run === run) {
      this.run = undefined;
      this.session = undefined;
    }
    const server = run.server;
    run.server = undefined;
    run.end(output);
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<http.Server> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (server.address() as net.AddressInfo).port;
    return server;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const run = this.run;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').replace(/\?.*$/, '').replace(/^\/wd\/hub(?=\/)/, '');
    const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
    const requested = m ? decodeURIComponent(m[1]) : undefined;
    const route = m ? `${req.method} ${(m[2] ?? '').replace(/^\/element\/(?!active)[^/]+/, '/element/:id') || '/session/:id'}` : `${req.method} /wd/hub${path}`;
    this.requests.push(route);
    const send = (status: number, value: unknown, sessionId: string | null = requested ?? null) => {
      const rendered = !this.renderFails || route === 'GET /wd/hub/status';
      const text = rendered ? JSON.stringify({ sessionId, value }) : '{}';
      if (!rendered) status = 500;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const fail = (status: number, error: string, message: string) => send(status, { error, message, stacktrace: `${message}\n\tat io.appium.uiautomator2…` });
    try {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      if (m && requested !== this.session) {
        return fail(404, 'invalid session id', `The session identified by ${requested} is not known`);
      }
      const needsUiAutomation = () => {
        if (this.uiAutomationLost) throw new Error(NOT_CONNECTED);
      };
      switch (route) {
        case 'GET /wd/hub/status':
          return send(200, { ready: true, message: 'UiAutomator2 Server is ready to accept commands', build: { version: '7.0.0', versionCode: 212 } }, 'None');
        case 'POST /wd/hub/session': {
          if (!body.capabilities || typeof body.capabilities !== 'object') {
            return fail(500, 'session not created', "io.appium.uiautomator2.common.exceptions.InvalidArgumentException: 'capabilities' are mandatory for session creation");
          }
          this.session = randomUUID();
          return send(200, { sessionId: this.session, capabilities: body.capabilities }, this.session);
        }
        case 'DELETE /session/:id':
          send(200, null);
          // DeleteSession stops the server 15 ms after answering; the test then returns.
          if (run) setTimeout(() => void this.finish(run, `.\n\nTime: 1.234\n\nOK (1 test)\n\n\nINSTRUMENTATION_CODE: -1\n`), 15);
          return;
        case 'GET /source':
          needsUiAutomation();
          if (this.sourceStalls) return void (await new Promise(() => undefined));
          await sleep(this.timing.sourceMs);
          return send(200, this.sourceXml());
        case 'GET /element/active':
          needsUiAutomation();
          // ActiveElement looks up By.focused(true), the input focus, not the keyboard: a field keeps focus after BACK hides the IME.
          if (this.phone.focusedField === undefined) return fail(404, 'no such element', 'An element could not be located on the page using the given search parameters');
          return send(200, { ELEMENT: 'focused-field', 'element-6066-11e4-a52e-4f735466cecf': 'focused-field' });
        case 'POST /element/:id/value':
          needsUiAutomation();
          if (this.staleFocus > 0) {
            this.staleFocus--;
            return fail(404, 'stale element reference', `The element '${m?.[2]?.split('/')[2] ?? ''}' does not exist in DOM anymore`);
          }
          if (this.focusedIsProgress) {
            if (Number.isNaN(Number.parseFloat(String(body.text)))) return fail(400, 'invalid argument', `Cannot convert '${String(body.text)}' to float`);
            return send(200, null);
          }
          if (this.focusedTakesNoText) {
            return fail(400, 'invalid element state', `Cannot set the element to '${String(body.text)}'. Did you interact with the correct element?`);
          }
          {
            // SendKeysToElement.setText: text ending in a backslash and "n" presses Enter after setting it, and
            // its replaceFirst("\\n$") looks for a newline character, so the backslash and n stay in the text.
            const text = String(body.text ?? '');
            const ctx = { signal: new AbortController().signal };
            await this.phone.typeText(text, ctx);
            if (text.endsWith('\\n')) await this.phone.pressButton('ENTER', ctx);
          }
          return send(200, null);
      }
      return fail(404, 'unknown command', 'The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource');
    } catch (err) {
      // SafeRequestHandler hands any other throwable back as a 500 "unknown error" with its text.
      if (!res.headersSent) fail(500, 'unknown error', (err as Error).message);
    }
  }

  /** uiautomator's `<node class="X" …>` elements renamed to `<X …>`, as the server's source names them. */
  private sourceXml(): string {
    const xml = this.dumpXml();
    const open: string[] = [];
    return xml
      .replace(/<hierarchy rotation="(\d)">/, (_m, r: string) => `<hierarchy index="0" class="hierarchy" rotation="${r}" width="${this.phone.size.width}" height="${this.phone.size.height}">`)
      .replace(/<node ([^>]*?)(\/?)>|<\/node>/g, (tag, attrs: string | undefined, selfClosing: string | undefined) => {
        if (tag === '</node>') return `</${open.pop()}>`;
        const cls = /class="([^"]*)"/.exec(attrs ?? '')?.[1] || 'android.view.View';
        if (!selfClosing) open.push(cls);
        const shown = /visible-to-user="false"/.test(attrs ?? '') ? 'false' : 'true';
        return `<${cls} ${(attrs ?? '').replace(/\s*visible-to-user="[^"]*"/, '')} displayed="${shown}"${selfClosing}>`;
      });
  }
}

import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { DeviceStream } from './adbd.js';

/*
 * An emulated appium-uiautomator2-server (io.appium.uiautomator2.server), as its AppiumServlet and
 * handlers answer: started by `am instrument -w … io.appium.uiautomator2.server.test/
 * androidx.test.runner.AndroidJUnitRunner` (the instrumentation lives while that command runs), it
 * listens on device port 6790 with routes under /wd/hub: GET /status, POST /session, GET
 * /session/:id/source (class-named XML elements, "displayed" instead of "visible-to-user"), GET
 * /session/:id/element/active, POST /session/:id/element/:el/value {text}. Without the two APKs
 * installed, `am instrument` fails the way ActivityManager reports a missing instrumentation.
 */

export const UIA2_PACKAGES = ['io.appium.uiautomator2.server', 'io.appium.uiautomator2.server.test'];
export const UIA2_PORT = 6790;

/** What the device's own work costs under the phone timing model (0 under the instant one). */
export interface Uia2Timing {
  /** From `am instrument` to the server answering /status. */
  startMs: number;
  /** One /source: a walk of the warm accessibility tree. */
  sourceMs: number;
}

export class EmulatedUia2 {
  private server: http.Server | undefined;
  private readonly servers = new Set<http.Server>();
  private port = 0;
  private session: string | undefined;
  requests: string[] = [];

  constructor(
    private readonly phone: VirtualDevice,
    private readonly dumpXml: () => string,
    readonly timing: Uia2Timing,
  ) {}

  /**
   * Whether the instrumentation holds the device's one UiAutomation connection: from its start
   * (UiDevice.getInstance connects before the server listens) until its process ends.
   */
  holdsUiAutomation = false;

  get running(): boolean {
    return this.server !== undefined;
  }

  get installed(): boolean {
    return UIA2_PACKAGES.every((p) => this.phone.installedApps.some((a) => a.package === p));
  }

  /** The `am instrument -w` shell stream: runs the server until the host closes the stream. */
  async instrument(stream: DeviceStream): Promise<void> {
    if (!this.installed) {
      const component = 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';
      await stream.write(`INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${component}}\nINSTRUMENTATION_STATUS_CODE: -1\nandroid.util.AndroidException: INSTRUMENTATION_FAILED: ${component}\n`);
      return;
    }
    const closed = new Promise<void>((resolve) => (stream.closed ? resolve() : stream.once('close', () => resolve())));
    this.holdsUiAutomation = true;
    try {
      await Promise.race([sleep(this.timing.startMs), closed]);
      if (stream.closed) return;
      const server = await this.listen();
      await closed;
      // The instrumentation ended (its shell stream closed): this run's server goes with it.
      await this.shut(server);
    } finally {
      this.holdsUiAutomation = false;
    }
  }

  /** A `tcp:6790` stream through adb: bridged to the server, or refused when it is not running. */
  bridge(stream: DeviceStream): Promise<void> | undefined {
    if (!this.server) return undefined;
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

  /** Kills the server (as if its process died); the instrumentation's shell stream stays open. */
  async stop(): Promise<void> {
    this.holdsUiAutomation = false;
    await Promise.all([...this.servers].map((s) => this.shut(s)));
  }

  private async shut(server: http.Server): Promise<void> {
    this.servers.delete(server);
    if (this.server === server) {
      this.server = undefined;
      this.session = undefined;
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<http.Server> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.servers.add(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
    return server;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const m = /^\/wd\/hub\/session\/([^/]+)(\/.*)$/.exec(path);
    const route = m ? `${req.method} ${m[2].replace(/^\/element\/(?!active)[^/]+/, '/element/:id')}` : `${req.method} ${path}`;
    this.requests.push(route);
    const send = (status: number, value: unknown) => {
      const text = JSON.stringify({ sessionId: this.session ?? null, value });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const fail = (status: number, error: string, message: string) => send(status, { error, message, stacktrace: '' });
    if (m && m[1] !== this.session) return fail(404, 'invalid session id', `A session is either terminated or not started`);
    switch (route) {
      case 'GET /wd/hub/status':
        return send(200, { ready: true, message: 'UiAutomator2 Server is ready to accept commands' });
      case 'POST /wd/hub/session':
        this.session = `${Date.now().toString(16)}-uia2`;
        return send(200, { sessionId: this.session, capabilities: body.capabilities ?? {} });
      case 'GET /source':
        await sleep(this.timing.sourceMs);
        return send(200, this.sourceXml());
      case 'GET /element/active':
        if (!this.phone.keyboardVisible) return fail(404, 'no such element', 'Cannot find focused element');
        return send(200, { ELEMENT: 'focused-field', 'element-6066-11e4-a52e-4f735466cecf': 'focused-field' });
      case 'POST /element/:id/value':
        await this.phone.typeText(String(body.text ?? ''), { signal: new AbortController().signal });
        return send(200, null);
    }
    return fail(404, 'unknown command', `The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: ${req.method} ${path}`);
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

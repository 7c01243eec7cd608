import http from 'node:http';
import type { Duplex } from 'node:stream';

/*
 * The HTTP side of appium-uiautomator2-server (io.appium.uiautomator2.server, AppiumServlet routes
 * under /wd/hub): GET /status → {value: {ready, message}}; POST /session → {sessionId, value:
 * {sessionId, capabilities}}; GET /session/:id/source → {value: "<?xml …><hierarchy …>"} whose
 * elements are named after their class (<android.widget.Button …>); GET /session/:id/element/active
 * → {value: {ELEMENT}}; POST /session/:id/element/:el/value {text, replace} types through
 * AccessibilityNodeInfo.ACTION_SET_TEXT, so any Unicode text works. Errors: {value: {error, message}}.
 */

export const UIA2_DEVICE_PORT = 6790;
export const UIA2_SERVER_PACKAGE = 'io.appium.uiautomator2.server';
export const UIA2_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
/** The instrumentation that keeps the server running; `-w` makes `am instrument` live as long as it does. */
export const UIA2_INSTRUMENT_COMMAND = `am instrument -w -e disableAnalytics true ${UIA2_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;

export class Uia2Error extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

/** One request over a fresh device connection (`tcp:6790` through the adb server): one round trip, no forward to clean up. */
export function uia2Request(connect: () => Promise<Duplex>, method: string, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request({
      method,
      path: `/wd/hub${path}`,
      host: 'device',
      signal,
      headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close', ...(payload ? { 'content-length': payload.length } : {}) },
      createConnection: (_opts, done) => {
        connect().then((socket) => done(null, socket as never), (err: Error) => done(err, undefined as never));
        return undefined;
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let envelope: { value?: unknown };
        try {
          envelope = JSON.parse(text) as { value?: unknown };
        } catch {
          return reject(new Uia2Error('unknown error', `UiAutomator2 server answered HTTP ${res.statusCode} with text that is not JSON: ${text.slice(0, 120)}`));
        }
        const value = envelope.value as { error?: unknown; message?: unknown } | undefined;
        if (value && typeof value === 'object' && typeof value.error === 'string') {
          return reject(new Uia2Error(value.error, typeof value.message === 'string' ? value.message : value.error));
        }
        // AppiumResponse.renderTo answers `{}` with 500 when it cannot serialise the answer: no error named, still a failure.
        if ((res.statusCode ?? 500) >= 400) {
          return reject(new Uia2Error('unknown error', `UiAutomator2 server answered HTTP ${res.statusCode}: ${text.slice(0, 120)}`));
        }
        resolve(envelope.value);
      });
    });
    req.end(payload);
  });
}

/** UiAutomator2's class-named elements as uiautomator dump's `<node>` elements, so one parser reads both. */
export function sourceAsDump(xml: string): string {
  return xml
    .replace(/<(\/?)(?!hierarchy\b|\?xml)([A-Za-z_][\w.$]*)(?=[\s>/])/g, '<$1node')
    .replace(/\sdisplayed="false"/g, ' visible-to-user="false"');
}

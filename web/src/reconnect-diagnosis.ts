import type { BridgeClient } from '../../src/protocol/client.js';
import { diagnose, type Diagnosis } from './connection.js';

const EVERY_MS = 2000;

/**
 * While the client reconnects, asks the bridge why every few seconds: a bridge restarted with
 * another token refuses the socket silently, and only /api/health can tell that apart from "down".
 */
export function diagnoseReconnects(client: BridgeClient, token: string | undefined, onDiagnosis: (d: Diagnosis | undefined) => void): void {
  let timer: ReturnType<typeof setInterval> | undefined;
  client.onState((state) => {
    if (state === 'reconnecting') {
      timer ??= setInterval(() => {
        void diagnose(token).then((d) => {
          if (client.state === 'reconnecting') onDiagnosis(d);
        });
      }, EVERY_MS);
      return;
    }
    clearInterval(timer);
    timer = undefined;
    if (state === 'open') onDiagnosis(undefined);
  });
}

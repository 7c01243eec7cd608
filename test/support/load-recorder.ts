/**
 * Preloaded with `node --import` into a process under test: writes every module the process
 * loads (ES modules through a loader hook, CommonJS through Module._load) to the file named by
 * MB_LOAD_RECORD, one per line, so a test can tell which libraries a command paid for.
 */
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const record = process.env.MB_LOAD_RECORD;
if (record) {
  register(new URL('./load-recorder-hooks.js', import.meta.url), { data: { record } });
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    appendFileSync(record, `require:${request}\n`);
    return load.call(this, request, ...rest);
  };
}

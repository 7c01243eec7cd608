/**
 * mobile-automator's own validator (`mauto validate`: `JSON.parse`, then its `ScenarioValidator`,
 * Ajv with `allErrors` over its bundled scenario_schema.json, errors worded by its formatError),
 * loaded from a folder given by MAUTO_DIR. Nothing is installed by the benchmark. To get it:
 *
 *   mkdir -p /tmp/mauto && cd /tmp/mauto && npm pack mobile-automator@0.25.0 && tar xzf mobile-automator-*.tgz
 *   ln -s "$OLDPWD/node_modules" package/node_modules   # its only runtime need here is ajv ^8.20
 *   MAUTO_DIR=/tmp/mauto/package node dist/scripts/bench/validate-vs-ajv.js
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Validator } from './ajv-stand-in.js';

interface MautoValidator {
  validate(doc: unknown): { valid: boolean; errors: string[] };
}

/** The real validator, or why it could not be loaded. */
export function loadMauto(dir = process.env.MAUTO_DIR): { validate: Validator; accepts: (text: string) => boolean; validateParsed: (doc: unknown) => boolean } | { missing: string } {
  if (!dir) return { missing: 'MAUTO_DIR is not set (see scripts/bench/mauto-side.ts for how to get mobile-automator)' };
  const file = join(dir, 'src/scenario/validator.js');
  if (!existsSync(file)) return { missing: `${file} does not exist: MAUTO_DIR must be the unpacked npm package folder` };
  const require = createRequire(file);
  const { ScenarioValidator } = require(file) as { ScenarioValidator: new () => MautoValidator };
  const v = new ScenarioValidator();
  const run = (text: string) => {
    try {
      return v.validate(JSON.parse(text));
    } catch {
      return { valid: false, errors: ['not JSON'] };
    }
  };
  return { validate: (text) => run(text).errors.length, accepts: (text) => run(text).valid, validateParsed: (doc) => v.validate(doc).valid };
}

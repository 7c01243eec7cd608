import { ToolError } from '../../../src/engine/errors.js';

/** A WDA error answer: W3C error name, HTTP status and message (FBCommandStatus.m). */
export class WdaFailure extends Error {
  constructor(
    readonly error: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** FBCommandStatus.h before W3C: the JSON Wire codes of the errors this emulation raises. */
export const LEGACY_CODES: Record<string, number> = {
  'invalid session id': 6,
  'no such element': 7,
  'unknown command': 9,
  'stale element reference': 10,
  'invalid element state': 12,
  'unknown error': 13,
  'invalid argument': 15,
  'session not created': 33,
};

export function toWdaFailure(err: unknown): WdaFailure {
  if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') return new WdaFailure('invalid argument', 400, err.message);
  return new WdaFailure('unknown error', 500, err instanceof Error ? err.message : String(err));
}

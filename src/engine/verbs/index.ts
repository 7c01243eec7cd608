import { DeterministicResolver } from '../resolve/index.js';
import type { Engine } from '../engine.js';
import { CORE_ACTIONS, type ActionFn } from './actions.js';
import { SEMANTIC_ACTIONS } from './semantic.js';
import { realClock, VerbError, type VerbContext, type VerbOutcome, type VerbStep } from './types.js';

export * from './types.js';
export { PERMISSION_LABELS, PERMISSION_WORDS } from './semantic.js';
export { dialogTexts, permissionPrompt, type PermissionPrompt } from './permission-prompt.js';
export { call, isDialog, isKeyboard, isLoadingIndicator, isToast, keyboardVisible, listElements, screenCapture, screenFingerprint, screenshotPng, textOf, within } from './screen.js';
export { findTarget, forgetSize, requestOf, resolvedOf, resolveOnce, targetPresent, verbScreenSize } from './target.js';

/** The 18 scenario actions of seed §4.3: 14 core ones and the 4 platform-agnostic ones. */
export const ACTIONS: Record<string, ActionFn> = { ...CORE_ACTIONS, ...SEMANTIC_ACTIONS };
export const VERB_NAMES = Object.keys(ACTIONS);

/**
 * Failures that say the device, its setup or the tool is broken rather than the app being in a
 * wrong state. A missing app is the device's setup, like a missing device: no retry or fix of the
 * scenario helps, so the run ends `error` (exit 2) rather than `failed` (exit 5).
 */
const ERROR_CODES = new Set(['DEVICE_NOT_FOUND', 'APP_NOT_INSTALLED', 'INTERNAL']);

/**
 * Runs one step live and reports what happened; never throws. `failed` means the app was not in
 * the state the step expects; `error` means the device or mobilebridge could not do it;
 * `needs_manual` means a person has to do it on this platform.
 */
export async function runVerb(ctx: VerbContext, step: VerbStep): Promise<VerbOutcome> {
  const started = performance.now();
  const action = ACTIONS[step.action];
  const done = (o: Omit<VerbOutcome, 'duration_ms' | 'action'>): VerbOutcome => ({ action: step.action, ...o, duration_ms: Math.round(performance.now() - started) });
  if (!action) {
    return done({ status: 'failed', resolved: null, message: `unknown action ${JSON.stringify(step.action)}`, error: { code: 'INVALID_PARAMETER', message: `unknown action ${JSON.stringify(step.action)}; actions: ${VERB_NAMES.join(', ')}` } });
  }
  try {
    const r = await action(ctx, step);
    const outcome = done({ status: 'passed', resolved: r.resolved ?? null, message: r.message });
    if (r.value !== undefined) outcome.value = r.value;
    return outcome;
  } catch (err) {
    const e = err instanceof VerbError ? err : new VerbError('INTERNAL', err instanceof Error ? err.message : String(err));
    const status = e.code === 'NEEDS_MANUAL' ? 'needs_manual' : ERROR_CODES.has(e.code) || e.code === 'CANCELLED' ? 'error' : 'failed';
    const error: VerbOutcome['error'] = { code: e.code, message: e.message };
    if (e.candidates?.length) error.candidates = e.candidates;
    return done({ status, resolved: null, message: e.message, error });
  }
}

export interface VerbSessionOptions {
  engine: Engine;
  device: string;
  origin?: string;
  appPackage?: string;
  signal?: AbortSignal;
  targetWaitMs?: number;
  pollMs?: number;
  clock?: VerbContext['clock'];
  resolver?: VerbContext['resolver'];
}

/** Builds a verb context for a device, looking up its platform. Throws VerbError DEVICE_NOT_FOUND. */
export async function verbContext(options: VerbSessionOptions): Promise<VerbContext> {
  const { devices, find } = await options.engine.lookupDevices();
  const info = find(options.device);
  if (!info) {
    throw new VerbError('DEVICE_NOT_FOUND', options.engine.deviceNotFoundMessage(options.device, devices));
  }
  return {
    engine: options.engine,
    device: options.device,
    os: info.os,
    origin: options.origin ?? 'verbs',
    resolver: options.resolver ?? new DeterministicResolver(),
    appPackage: options.appPackage,
    signal: options.signal,
    clock: options.clock ?? realClock,
    targetWaitMs: options.targetWaitMs ?? 3000,
    pollMs: options.pollMs ?? 250,
  };
}

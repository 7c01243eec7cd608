/**
 * Error codes of the seed (§7) plus SPEC §2's UNSUPPORTED and INTERNAL, and DISK_FULL (issue 16):
 * a full disk is the operator's to fix, not a bad parameter and not a bug.
 */
export const ERROR_CODES = [
  'DEVICE_NOT_FOUND',
  'APP_NOT_INSTALLED',
  'ELEMENT_NOT_FOUND',
  'TIMEOUT',
  'INVALID_PARAMETER',
  'PERMISSION_DENIED',
  'UNSUPPORTED',
  'DISK_FULL',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ToolFailure {
  status: 'error';
  code: ErrorCode;
  message: string;
  /**
   * The request was sent on and its answer lost (an aggregator's peer dropped or froze while it
   * ran it): it may have run, fully or in part. Absent on a refusal, which ran nothing.
   */
  may_have_run?: true;
}

/**
 * Thrown by drivers and handlers; the engine turns it into a ToolFailure so that
 * no exception ever crosses the engine boundary.
 */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The message already says what became of the work (an install abandoned on the phone): no generic note is added to it. */
    readonly settled = false,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * The caller gave up on a device call (requests.cancel, an MCP client's cancellation, its session
 * ended). `ran`: it had started on the device, so it may have acted there in part.
 */
export class CallCancelled extends ToolError {
  constructor(
    message: string,
    readonly ran: boolean,
  ) {
    super('INTERNAL', message, true);
    this.name = 'CallCancelled';
  }
}

export function failure(code: ErrorCode, message: string): ToolFailure {
  return { status: 'error', code, message };
}

export function isToolFailure(value: unknown): value is ToolFailure {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'error' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/**
 * The DEVICE_NOT_FOUND message every layer uses: names the id, what is connected instead and the
 * device sources that did not answer (Engine.sourceProblems), since the device may be behind one of
 * them (a peer bridge down, no adb server) and that is what the caller has to fix.
 */
export function deviceNotFoundMessage(id: string, known: readonly string[], silent: readonly string[] = []): string {
  return `device ${JSON.stringify(id)} not found; connected devices: ${known.length ? known.join(', ') : 'none'}${silent.length ? `; not answering: ${silent.join('; ')}` : ''}`;
}

/** Anything thrown becomes a ToolFailure; unknown exceptions are INTERNAL with their message, never a stack. */
export function toFailure(err: unknown): ToolFailure {
  if (err instanceof ToolError) return failure(err.code, err.message);
  const message = err instanceof Error ? err.message : String(err);
  return failure('INTERNAL', message || 'unknown internal error');
}

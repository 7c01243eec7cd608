import { ToolError } from '../../errors.js';

/**
 * A command the installed go-ios or simctl does not have (an older build, or an emulation of a few commands):
 * it answered as to an unknown one. UNSUPPORTED naming it, and what a caller with another way catches.
 */
export class ToolLacks extends ToolError {
  constructor(readonly command: string, message: string) {
    super('UNSUPPORTED', message);
  }
}

/** What `run` gives, or undefined when its tool lacks the command. */
export async function unlessLacking<T>(run: Promise<T>): Promise<T | undefined> {
  try {
    return await run;
  } catch (err) {
    if (err instanceof ToolLacks) return undefined;
    throw err;
  }
}

import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { EXIT, printJson, refuseAsToolError, type Command } from '../command.js';
import { usableStateFile } from '../engine-setup.js';

/** Whether there was saved state to remove; an unusable state folder is refused as every command refuses it (exit 3). */
export async function resetVirtualState(): Promise<{ file: string; removed: boolean }> {
  const file = usableStateFile(process.env, false);
  const removed = existsSync(file);
  await rm(file, { force: true });
  return { file, removed };
}

const command: Command = {
  name: 'reset',
  usage: `Usage: mobilebridge reset

Deletes the saved state of the virtual devices (installed apps, open screens,
field contents, orientation), so the next command starts from the home screen.`,
  refuse: refuseAsToolError,
  flags: [],
  async run() {
    const { file, removed } = await resetVirtualState();
    printJson({ status: 'success', message: removed ? `virtual devices reset (removed ${file})` : `virtual devices are already fresh (no saved state at ${file})` });
    return EXIT.ok;
  },
};

export default command;

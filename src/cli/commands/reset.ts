import { rm } from 'node:fs/promises';
import { EXIT, printJson, type Command } from '../command.js';
import { virtualStateFile } from '../engine-setup.js';

export async function resetVirtualState(): Promise<string> {
  const file = virtualStateFile();
  await rm(file, { force: true });
  return file;
}

const command: Command = {
  name: 'reset',
  summary: 'forget the virtual devices\' saved state and start them fresh',
  usage: `Usage: mobilebridge reset

Deletes the saved state of the virtual devices (installed apps, open screens,
field contents, orientation), so the next command starts from the home screen.`,
  flags: [],
  async run() {
    const file = await resetVirtualState();
    printJson({ status: 'success', message: `virtual devices reset (removed ${file})` });
    return EXIT.ok;
  },
};

export default command;

import { createEngine } from '../../engine/create.js';
import { EXIT, InvalidInputError, parseFlags, printJson, refuseAsToolError, type Command } from '../command.js';
import { DEVICE_FLAGS, DEVICE_FLAGS_HELP, engineSetupFromFlags } from '../engine-setup.js';
import { withBridge } from '../bridge-attach.js';

const command: Command = {
  name: 'devices',
  usage: `Usage: mobilebridge devices [--bridge ws://host:4800/ws] [--token T] [--no-virtual]

Prints {"devices": [{id, os, model, version}, ...]} as JSON. The virtual devices
(virtual-android-1, virtual-ios-1) are always listed unless --no-virtual is given.

Options:
  --bridge URL   ask a running bridge instead of opening devices in this process (the device
                 options below are the bridge's own then, and refused here)
  --token T      token for --bridge (or MOBILEBRIDGE_TOKEN)

${DEVICE_FLAGS_HELP}`,
  refuse: refuseAsToolError,
  flags: ['bridge', 'token', ...DEVICE_FLAGS],
  async run(args) {
    const { flags, positional } = parseFlags(args);
    if (positional.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positional[0])}: devices takes only options; see mobilebridge devices --help`);
    // devices.list holds what mobile_list_available_devices answers ({devices}) and the bridge's notes: one listing.
    const bridged = await withBridge(flags, (client) => client.request('devices.list', {}));
    if (bridged.attached) {
      printJson({ devices: bridged.result.devices });
      for (const note of bridged.result.notes ?? []) process.stderr.write(`mobilebridge devices: ${note}\n`);
      return EXIT.ok;
    }
    // One listing, then gone: no hot-plug feed beside it.
    const engine = createEngine({ ...engineSetupFromFlags(flags), watchDevices: false });
    try {
      printJson({ devices: await engine.listDevices() });
      // On stderr, so the JSON stays the tool's result: a source that did not answer lists nothing, silently otherwise.
      for (const problem of engine.sourceProblems()) process.stderr.write(`mobilebridge devices: ${problem}\n`);
      return EXIT.ok;
    } finally {
      await engine.close();
    }
  },
};

export default command;

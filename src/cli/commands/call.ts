import { createEngine } from '../../engine/create.js';
import { failure, isToolFailure, type ErrorCode } from '../../engine/errors.js';
import { TOOLS } from '../../engine/tools/index.js';
import { RpcError, RPC_ERRORS } from '../../protocol/jsonrpc.js';
import { EXIT, InvalidInputError, parseFlags, printJson, refuseAsToolError, type Command } from '../command.js';
import { withBridge } from '../bridge-attach.js';
import { cancelOnInterrupt, signalExitCode } from '../interrupt.js';
import { DEVICE_FLAGS, DEVICE_FLAGS_HELP, engineSetupFromFlags } from '../engine-setup.js';
import { resetVirtualState } from './reset.js';

/** Tool error codes mapped onto SPEC §4's exit codes. */
const EXIT_FOR: Record<ErrorCode, number> = {
  DEVICE_NOT_FOUND: EXIT.device,
  APP_NOT_INSTALLED: EXIT.device,
  TIMEOUT: EXIT.device,
  PERMISSION_DENIED: EXIT.device,
  UNSUPPORTED: EXIT.device,
  INVALID_PARAMETER: EXIT.invalidInput,
  ELEMENT_NOT_FOUND: EXIT.targetNotFound,
  DISK_FULL: EXIT.internal,
  INTERNAL: EXIT.internal,
};

const command: Command = {
  name: 'call',
  usage: `Usage: mobilebridge call <tool> ['<json parameters>'] [options]

Runs one mobile_* tool and prints its result as JSON. Failures print
{"status":"error","code":...,"message":...} and exit non-zero
(2 device/app/timeout/permission/unsupported, or no bridge attached at --bridge,
3 invalid parameter, 4 element not found, 1 internal or disk full). Ctrl-C cancels
the call where it can (an install abandons its session), prints what it did and
exits 130 unless it had finished; SIGTERM and SIGHUP cancel the same way (exit 143, 129).

The virtual devices keep their state between calls (in ~/.cache/mobilebridge, or
MOBILEBRIDGE_STATE_DIR), so successive calls act on one continuing phone.

Examples:
  mobilebridge call mobile_list_available_devices
  mobilebridge call mobile_launch_app '{"device":"virtual-android-1","packageName":"com.mobilebridge.demo"}'
  mobilebridge call mobile_list_elements_on_screen '{"device":"virtual-android-1"}'

Options:
  --reset            start the virtual devices fresh before the call
  --bridge URL       send the call to a running bridge (ws://127.0.0.1:4800/ws); its own devices
                     and settings apply there: --reset and the device options are refused
  --token T          token for --bridge (or MOBILEBRIDGE_TOKEN)

${DEVICE_FLAGS_HELP}

Tools:
${TOOLS.map((t) => `  ${t.name}`).join('\n')}`,
  refuse: refuseAsToolError,
  flags: ['reset', 'bridge', 'token', ...DEVICE_FLAGS],
  async run(args) {
    const { flags, positional } = parseFlags(args, ['reset']);
    const [tool, json, ...extra] = positional;
    // Dropping it would run a different call than the one typed (often the JSON split by the shell at a space).
    if (extra.length) {
      throw new InvalidInputError(
        `unexpected argument ${JSON.stringify(extra[0])}: call takes a tool name and one JSON object of parameters, quoted as one argument, e.g. mobilebridge call mobile_type_keys '{"device":"virtual-android-1","text":"hello world"}'`,
      );
    }
    if (!tool) {
      printJson(failure('INVALID_PARAMETER', `missing tool name: mobilebridge call <tool> '<json>'; tools: ${TOOLS.map((t) => t.name).join(', ')}`));
      return EXIT.invalidInput;
    }
    let parameters: unknown = {};
    if (json !== undefined) {
      try {
        parameters = JSON.parse(json);
      } catch (err) {
        printJson(failure('INVALID_PARAMETER', `parameters are not valid JSON (${(err as Error).message}); pass one quoted JSON object, e.g. '{"device":"virtual-android-1"}'`));
        return EXIT.invalidInput;
      }
    }
    if (flags.bridge !== undefined) {
      // The engine takes null as {} and refuses the rest itself; the bridge's JSON-RPC check would answer the rest as a protocol error.
      parameters ??= {};
      if (typeof parameters !== 'object' || Array.isArray(parameters)) {
        printJson(failure('INVALID_PARAMETER', `${tool}: parameters must be a JSON object such as {"device": "virtual-android-1"}, not ${Array.isArray(parameters) ? 'an array' : typeof parameters}`));
        return EXIT.invalidInput;
      }
    }
    // Ctrl-C cancels the call where it can (an install abandons its session) and prints what it did. So do
    // SIGTERM (a CI timeout, `timeout 60 mobilebridge call …`, docker stop) and SIGHUP: ending at once would
    // leave an install session open on the phone, or the bridge working on a call nobody waits for.
    const interrupt = cancelOnInterrupt(`mobilebridge call: cancelling ${tool} (it stops where it can and says what it did; Ctrl-C again to quit at once)`, ['SIGINT', 'SIGTERM', 'SIGHUP']);
    let result: unknown;
    try {
      const bridged = await withBridge(flags, (client) =>
        client.requestRaw('tools.call', { tool, parameters }, interrupt.signal).catch((err: unknown) => {
          // Parameters the bridge refuses are the caller's to fix, as they are without --bridge (exit 3, not INTERNAL).
          if (err instanceof RpcError && err.code === RPC_ERRORS.INVALID_PARAMS) return failure('INVALID_PARAMETER', err.message);
          throw err;
        }),
      );
      if (bridged.attached) {
        result = bridged.result;
      } else {
        if (flags.reset === true) await resetVirtualState();
        // One call, then gone: no device feed (it would start the adb server for a call on a virtual phone).
        const engine = createEngine({ ...engineSetupFromFlags(flags), watchDevices: false });
        try {
          result = await engine.call(tool, parameters, { origin: 'cli', signal: interrupt.signal });
        } finally {
          await engine.close();
        }
      }
    } finally {
      interrupt.dispose();
    }
    printJson(result);
    if (!isToolFailure(result)) return EXIT.ok;
    const stopped = interrupt.stoppedBy();
    return stopped ? signalExitCode(stopped) : (EXIT_FOR[result.code] ?? EXIT.internal);
  },
};

export default command;

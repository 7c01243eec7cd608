/**
 * What a device's shell answers for what it lacks: a vendor or stripped-down build without a binary
 * or a system service, or a device emulation that implements fewer commands than Android has (the
 * driver must stay usable there, falling back where it can). Entries of `absent` name a binary
 * ("monkey"), a service's dump ("dumpsys input"), a service's shell commands ("cmd package"), or one
 * of them ("cmd package resolve-activity", "pm install-create").
 */
import type { CommandResult } from './shell-command.js';

/** The answer for `words` when it names something absent, else undefined (the command runs). */
export function absentAnswer(words: readonly string[], absent: ReadonlySet<string>): CommandResult | undefined {
  if (absent.size === 0 || words.length === 0) return undefined;
  const [binary, service] = words;
  // dumpsys.cpp startDumpThread: checkService found nothing; the run goes on and main returns 0.
  if (binary === 'dumpsys' && service !== undefined && absent.has(`dumpsys ${service}`)) return { out: '', err: `Can't find service: ${service}\n`, code: 0 };
  // A service without that one command: BasicShellCommandHandler.handleDefaultCommands, exit -1. `pm` is `cmd package` from Android 8.
  const verb = words[2];
  if ((binary === 'cmd' && verb !== undefined && absent.has(`cmd ${service} ${verb}`)) || (binary === 'pm' && service !== undefined && absent.has(`pm ${service}`))) {
    return { out: `Unknown command: ${binary === 'pm' ? service : verb}\n`, code: 255 };
  }
  // cmd.cpp: no such service registered.
  if (binary === 'cmd' && service !== undefined && absent.has(`cmd ${service}`)) return { out: '', err: `cmd: Can't find service: ${service}\n`, code: 20 };
  // mksh's message for a command it finds nowhere on PATH.
  if (absent.has(binary)) return { out: '', err: `/system/bin/sh: ${binary}: inaccessible or not found\n`, code: 127 };
  return undefined;
}

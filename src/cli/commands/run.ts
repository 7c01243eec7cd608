import { dirname, relative, resolve } from 'node:path';
import { createEngine, type EngineSetup } from '../../engine/create.js';
import { claimOutput, htmlReport, junitXml, paths, prepareOutput, routeScenarios, runOnDevices, shard, writeFileAtomic, type NotStartedRun, type PlannedRun } from '../../engine/runner/index.js';
import type { ResultDocument } from '../../validate/index.js';
import { envelope, loadScenario, type Scenario, type ValidationReport } from '../../validate/index.js';
import { markDuplicateIds, MAX_SCENARIO_BYTES, projectRoots, unreadable } from '../../validate/files.js';
import { readRegularTextSync } from '../../validate/regular-file.js';
import { EXIT, InvalidInputError, parseFlags, printJson, type Command } from '../command.js';
import type { DeviceList } from './run-bridge.js';
import { cancelOnInterrupt, signalExitCode, type StopSignal } from '../interrupt.js';
import { incompleteHtml, incompleteJunit } from '../../engine/runner/reports/incomplete.js';
import { DEVICE_FLAGS, DEVICE_FLAGS_HELP, engineSetupFromFlags, stateDir } from '../engine-setup.js';
import { isLeaseRequest, leaseDevices, parseDuration, type Lease } from '../../engine/leases/index.js';
import { byTags, parameterSources, preflight, takeRepeated, undeclaredParameters, withoutFlows } from '../run-authoring.js';
import { listRuns } from '../run-list.js';
import { progressPrinter } from '../run-progress.js';
import { folderName, scenarioFiles } from '../run-files.js';
import { resolveParameters } from '../../engine/runner/parameters.js';
import { resetVirtualState } from './reset.js';
import { refuse } from '../run-refusal.js';
import { bridgeIgnoresProblem } from '../bridge-attach.js';

/** Exit code of a scenario that ran to the end and failed (a step or an assertion); SPEC §4 leaves it open. */
export const EXIT_FAILED = 5;

function steps(d: ResultDocument): ResultDocument['steps_executed'] {
  const all = (list: ResultDocument['steps_executed']): ResultDocument['steps_executed'] => list.flatMap((s) => [s, ...all(s.sub_steps_executed ?? [])]);
  return all(d.steps_executed);
}

/** The worst outcome decides: cancelled, then device error, internal error, target not found, failed. */
/**
 * The error code an `error` summary starts with (scenario-runner.ts `finish`): "error before the
 * first step: DEVICE_NOT_FOUND: …", "error after 3 steps: TIMEOUT: …". Read from its place only: a
 * message that merely mentions a code ("… TIMEOUT setting …") is no code.
 */
function summaryCode(summary: string): string | undefined {
  return /^error (?:before the first step|after \d+ steps?|at step .+? \([a-z_]+\)): ([A-Z_]+):/.exec(summary)?.[1];
}

export function exitCodeFor(documents: ResultDocument[]): number {
  if (documents.some((d) => d.status === 'cancelled')) return EXIT.cancelled;
  const errored = documents.filter((d) => d.status === 'error');
  if (errored.length) {
    const deviceCodes = ['DEVICE_NOT_FOUND', 'TIMEOUT', 'APP_NOT_INSTALLED', 'PERMISSION_DENIED', 'UNSUPPORTED'];
    const device = errored.some((d) => steps(d).some((s) => deviceCodes.includes(s.error_code ?? '')) || deviceCodes.includes(summaryCode(d.summary) ?? ''));
    return device ? EXIT.device : EXIT.internal;
  }
  const failed = documents.filter((d) => d.status === 'failed');
  if (!failed.length) return EXIT.ok;
  const notFound = (s: ResultDocument['steps_executed'][number]) => s.error_code === 'ELEMENT_NOT_FOUND' || (s.action === 'wait_for_element' && s.error_code === 'TIMEOUT');
  return failed.some((d) => steps(d).some((s) => s.status === 'failed' && notFound(s))) ? EXIT.targetNotFound : EXIT_FAILED;
}

/** The devices `--devices a,b` or `--device a` name (none: each scenario's default), or what is wrong with the list; routing drops repeats. */
function requestedDevices(flags: Record<string, string | boolean>): string[] | string {
  if (typeof flags.devices !== 'string') return typeof flags.device === 'string' ? [flags.device] : [];
  // "a, b" is a list of two: a space after a comma is not part of the next id.
  const ids = flags.devices.split(',').map((id) => id.trim()).filter(Boolean);
  if (!ids.length) return `--devices names no device (got "${flags.devices}"); give device ids separated by commas, e.g. --devices virtual-android-1,virtual-ios-1`;
  return ids;
}

/** How a reader knows the signal: Ctrl-C is SIGINT. */
export function stopName(signal: StopSignal | undefined): string {
  return !signal || signal === 'SIGINT' ? 'Ctrl-C' : signal;
}

/** A device refusal with the sources that did not answer (the adb server down), as a call's DEVICE_NOT_FOUND names them: else the user looks for a cable. */
function withSilentSources(message: string, problems: string[]): string {
  return problems.length ? `${message}; not answering: ${problems.join('; ')}` : message;
}

async function localDeviceList(setup: EngineSetup): Promise<DeviceList> {
  const engine = createEngine(setup);
  try {
    return { lookup: await engine.lookupDevices(), problems: () => engine.sourceProblems(), close: () => engine.close() };
  } catch (err) {
    await engine.close();
    throw err;
  }
}

const command: Command = {
  name: 'run',
  usage: `Usage: mobilebridge run <scenario.json|dir>... [options]

Validates every scenario first (any invalid one: the validation envelope, exit 3), then replays
them and writes under --out:
  results/<run_id>.json                          result document, rewritten after every step
  screenshots/<scenario_id>/<run_id>/<step>.png  one screenshot per executed step
  junit.xml, report.html                         one testcase / section per scenario run

Options:
  --device ID        device to run on (default: the first device of each scenario's platform)
  --devices A,B,C    run the scenarios in parallel over these devices, each scenario on a device
                     of its platform (a scenario none of them can run: exit 3); any:android /
                     any:ios (or any) leases a free device of that platform from every source
  --lease-timeout D  wait up to D (10m, 90s) in a first-come, first-served line for the devices;
                     other runs on this machine sharing the state folder wait for ours (default 0:
                     take free ones or fail at once). Named devices are leased too when given
  --shard i/n        run only the i-th of n slices of the scenarios (for CI machines)
  --out DIR          output folder (default ./mobilebridge-out)
  --reset            start the virtual devices fresh, and terminate the app and clear its data first
                     (refused with --bridge, as the device options are: the bridge's own apply)
  --target-wait MS   how long a step waits for its target to appear (default 3000)
  --bridge URL       run on a bridge's devices (ws://host:4800/ws; an aggregator reaches its peers'),
                     leasing them there; results and reports are written here, but the step
                     screenshots stay on the host that ran the steps (report.html shows them missing)
  --token T          token for --bridge (or MOBILEBRIDGE_TOKEN)
  --param NAME=VALUE a value for a scenario parameter (repeatable); before --params-file,
                     then the environment (MB_PARAM_NAME), then the parameter's default
  --params-file FILE a JSON object of parameter values, e.g. {"USER_EMAIL": "a@b.c"}
  --include-tags a,b run only scenarios with at least one of these tags
  --exclude-tags c   leave out scenarios with any of these tags
  --list             print what would run where (after tags and --shard) and stop; what would
                     stop the run is listed with the run's exit code (3 a parameter without
                     a value, 2 a device that is not connected)
A file that another scenario of the run uses as a flow runs inside it, not on its own.

${DEVICE_FLAGS_HELP}

Exit codes: 0 every scenario passed, ${EXIT_FAILED} a step or assertion failed (or needs manual action),
4 a step's target was not found, 2 device error, 3 invalid scenario, 1 internal error, 130 cancelled (Ctrl-C;
143 on SIGTERM, 129 on SIGHUP, which cancel the same way).`,
  // main has written the problem to stderr already.
  refuse: (problem) => refuse(EXIT.invalidInput, problem, ''),
  flags: ['device', 'devices', 'lease-timeout', 'shard', 'out', 'reset', 'target-wait', 'bridge', 'token', 'param', 'params-file', 'include-tags', 'exclude-tags', 'list', ...DEVICE_FLAGS],
  async run(rawArgs) {
    const params = takeRepeated(rawArgs, 'param');
    if (params.error) {
      return refuse(EXIT.invalidInput, `${params.error}`);
    }
    const args = params.rest;
    const { flags, positional } = parseFlags(args, ['reset', 'list']);
    const given = parameterSources(params.values, typeof flags['params-file'] === 'string' ? flags['params-file'] : undefined, process.env);
    if (given.error || flags['params-file'] === true) {
      return refuse(EXIT.invalidInput, `${given.error ?? '--params-file needs a file name'}`);
    }
    if (!positional.length) {
      return refuse(EXIT.invalidInput, 'give at least one scenario file or folder (see --help)');
    }
    const ignored = bridgeIgnoresProblem(flags);
    if (ignored) return refuse(EXIT.invalidInput, ignored);
    const outDir = resolve(typeof flags.out === 'string' ? flags.out : 'mobilebridge-out');
    const { files, skipped } = scenarioFiles(positional, outDir);
    const texts: string[] = [];
    for (const { file } of files) {
      const read = readRegularTextSync(file, MAX_SCENARIO_BYTES);
      if ('why' in read) {
        const { report, readError } = unreadable(file, read.why, read.undecodable);
        printJson(envelope(report, readError));
        return readError ? EXIT.internal : EXIT.invalidInput;
      }
      texts.push(read.text);
    }
    // As validate judges them: a flow of another file is checked in the folder of the scenario that runs it.
    const { rootOf } = projectRoots(files.map((f, i) => ({ file: f.file, text: texts[i] })));
    const loaded: { file: string; folder: string; report: ValidationReport; scenario?: Scenario }[] = files.map((found, i) => ({
      file: found.file,
      folder: folderName(found),
      ...loadScenario(texts[i], found.file, { baseDir: dirname(found.file), rootDir: rootOf(found.file) }),
    }));
    if (!loaded.length) {
      const why = skipped ? ` (the run's results under the output folder ${relative(process.cwd(), outDir) || '.'} are left out: they are not scenarios)` : '';
      return refuse(EXIT.invalidInput, `no .json scenarios in ${positional.join(', ')}${why}`);
    }
    // Two files with one scenario_id would share results and the resolution cache: refused as validate refuses them.
    markDuplicateIds(loaded.map((l, i) => ({ report: l.report, text: texts[i], scenarioId: l.scenario?.scenario_id })));
    if (loaded.some((l) => !l.scenario || !l.report.valid)) {
      printJson(envelope(loaded.map((l) => l.report)));
      return EXIT.invalidInput;
    }

    // Checked against every file given, before tags and --shard: a CI job passes one --param to all its shards.
    const undeclared = undeclaredParameters(loaded, given.sources!.given ?? {});
    if (undeclared) {
      return refuse(EXIT.invalidInput, undeclared);
    }
    const parts = withoutFlows(loaded);
    if (flags.list !== true) {
      // Named on the command line or found in a folder, a flow file is not run on its own; without a word, a file given by name seems forgotten.
      const shown = (l: (typeof loaded)[number]) => relative(process.cwd(), l.file) || l.file;
      for (const [flow, user] of parts.usedBy) process.stderr.write(`mobilebridge run: ${shown(flow)} is a flow of ${shown(user)}: it runs inside it, not on its own\n`);
    }
    const tagged = byTags(parts.kept, flags['include-tags'], flags['exclude-tags']);
    if (tagged.error) {
      return refuse(EXIT.invalidInput, `${tagged.error}`);
    }
    if (!tagged.kept.length) {
      return refuse(EXIT.invalidInput, `no scenario is left after --include-tags/--exclude-tags (tags in use: ${[...new Set(loaded.flatMap((l) => l.scenario?.tags ?? []))].join(', ') || 'none'})`);
    }
    let selected = tagged.kept;
    if (typeof flags.shard === 'string') {
      const m = /^(\d+)\/(\d+)$/.exec(flags.shard);
      if (!m) {
        return refuse(EXIT.invalidInput, `--shard must look like 1/3 (got ${flags.shard})`);
      }
      try {
        selected = shard(tagged.kept, Number(m[1]), Number(m[2]));
      } catch (err) {
        return refuse(EXIT.invalidInput, `${(err as Error).message}`);
      }
      // Not an error (a CI matrix may have more machines than scenarios), but not silent either.
      if (!selected.length) process.stderr.write(`mobilebridge run: shard ${flags.shard} of ${tagged.kept.length} scenario${tagged.kept.length === 1 ? '' : 's'} is empty: this machine runs nothing\n`);
    }
    const targetWait = typeof flags['target-wait'] === 'string' ? Number(flags['target-wait']) : 3000;
    if (!(Number.isInteger(targetWait) && targetWait >= 0)) {
      return refuse(EXIT.invalidInput, '--target-wait must be a whole number of milliseconds');
    }
    const requested = requestedDevices(flags);
    if (typeof requested === 'string') return refuse(EXIT.invalidInput, requested);
    const problems = preflight(selected, given.sources!);
    if (problems.length && flags.list !== true) {
      return refuse(EXIT.invalidInput, `nothing was run: ${problems.join('; ')}`, `nothing was run:\n${problems.map((p) => `  ${p}\n`).join('')}`);
    }
    // Checked before the output folder is touched, and answered in run's shape: a CI script reads exit_code from stdout.
    let setup: EngineSetup | undefined;
    if (typeof flags.bridge !== 'string') {
      try {
        setup = engineSetupFromFlags(flags);
      } catch (err) {
        return refuse(err instanceof InvalidInputError ? EXIT.invalidInput : EXIT.internal, (err as Error).message);
      }
    }
    if (flags.list === true) {
      // With --bridge the plan is made over the bridge's devices, which the run would use.
      const devices = typeof flags.bridge === 'string' ? await (await import('./run-bridge.js')).bridgeDeviceList(flags.bridge, flags) : await localDeviceList(setup!);
      if ('refused' in devices) return refuse(devices.code, devices.refused);
      try {
        const { runs, refusal } = listRuns(selected, requested, devices.lookup);
        const left = parts.kept.filter((l) => !selected.includes(l)).map((l) => relative(process.cwd(), l.file) || l.file);
        const flows = parts.flows.map((l) => relative(process.cwd(), l.file) || l.file);
        // The plan is shown even when the run would refuse to start; `problems` says why it would,
        // with the exit code the run would give (3 for what the command line asks, 2 for missing devices).
        if (refusal) problems.push(refusal.kind === 'device' ? withSilentSources(refusal.message, devices.problems()) : refusal.message);
        const code = !problems.length ? EXIT.ok : refusal?.kind === 'device' && problems.length === 1 ? EXIT.device : EXIT.invalidInput;
        const kind = code === EXIT.device ? 'device' : 'invalid_input';
        const refused = problems.length ? { error: { kind, message: `the run would stop before its first step: ${problems.join('; ')}` } } : {};
        const bridge = typeof flags.bridge === 'string' ? { bridge: flags.bridge } : {};
        printJson({ ok: !problems.length, data: { runs, not_selected: left, flows, shard: typeof flags.shard === 'string' ? flags.shard : null, problems, ...bridge }, ...refused, exit_code: code });
        return code;
      } finally {
        await devices.close();
      }
    }
    let leaseTimeout = 0;
    try {
      if (typeof flags['lease-timeout'] === 'string') leaseTimeout = parseDuration(flags['lease-timeout'], '--lease-timeout');
      else if (flags['lease-timeout'] === true) throw new Error('--lease-timeout needs a duration, e.g. --lease-timeout 10m');
    } catch (err) {
      return refuse(EXIT.invalidInput, `${(err as Error).message}`);
    }
    try {
      const recovered = await prepareOutput(outDir);
      for (const file of recovered.interrupted) process.stderr.write(`mobilebridge run: ${file} was left running by a run that stopped; marked error (interrupted)\n`);
    } catch (err) {
      return refuse(EXIT.invalidInput, `--out: ${(err as Error).message}`);
    }
    const claim = await claimOutput(outDir).catch((err: unknown) => err as Error);
    if (claim instanceof Error) return refuse(EXIT.invalidInput, `--out: ${claim.message}`);
    if ('heldBy' in claim) {
      const shown = relative(process.cwd(), outDir) || '.';
      return refuse(EXIT.invalidInput, `--out ${shown}: another run (pid ${claim.heldBy}) is writing to this folder, and this run would replace its junit.xml and report.html with its own; give this run another --out, or wait for that one to end`);
    }
    // From here on a stop signal cancels: CI timeouts and cancels, `docker stop` and a closed terminal send SIGTERM or SIGHUP, not Ctrl-C.
    const interrupt = cancelOnInterrupt('mobilebridge run: cancelling (the result documents are finished as cancelled; Ctrl-C again to quit at once)', ['SIGINT', 'SIGTERM', 'SIGHUP']);
    const cancelCode = () => signalExitCode(interrupt.stoppedBy() ?? 'SIGINT');
    try {
      const incomplete = { startedAt: new Date(), pid: process.pid, planned: selected.map((l) => ({ name: relative(process.cwd(), l.file) || l.file, folder: l.folder, scenario: l.scenario! })) };
      try {
        await writeFileAtomic(paths.junit(outDir), incompleteJunit(incomplete));
        await writeFileAtomic(paths.html(outDir), incompleteHtml(incomplete));
      } catch (err) {
        return refuse(EXIT.internal, `--out: the previous run's junit.xml and report.html could not be replaced, so they would read as this run's: ${(err as Error).message}`);
      }
      if (typeof flags.bridge === 'string') {
        const { runThroughBridge } = await import('./run-bridge.js');
        return await runThroughBridge({
          bridge: flags.bridge,
          flags,
          files: selected.map((l) => ({ file: l.file, name: relative(process.cwd(), l.file) || l.file, folder: l.folder, scenario: l.scenario!, platform: l.scenario!.platform, parameters: resolveParameters(l.scenario!.parameters, given.sources).values })),
          devices: requested,
          leaseTimeoutMs: flags['lease-timeout'] === undefined ? undefined : leaseTimeout,
          outDir,
          signal: interrupt.signal,
          cancelCode,
          cancelledBy: () => stopName(interrupt.stoppedBy()),
          exitCodeFor,
        });
      }
      if (flags.reset === true) {
        try {
          await resetVirtualState();
        } catch (err) {
          return refuse(err instanceof InvalidInputError ? EXIT.invalidInput : EXIT.internal, (err as Error).message);
        }
      }
      const engine = createEngine(setup!);
      let leases: Lease[] = [];
      try {
        let wanted = requested;
        if (wanted.some(isLeaseRequest) || flags['lease-timeout'] !== undefined) {
          const platform = selected[0]?.scenario?.platform ?? 'cross-platform';
          if (!wanted.length) wanted = [platform === 'cross-platform' ? 'any' : `any:${platform}`];
          try {
            leases = await leaseDevices(wanted, { engine, stateDir: stateDir(), timeoutMs: leaseTimeout, defaultPlatform: platform, signal: interrupt.signal, log: (line) => process.stderr.write(`mobilebridge run: ${line}\n`) });
          } catch (err) {
            if (interrupt.signal.aborted) return cancelCode();
            return refuse(EXIT.device, `${(err as Error).message}`);
          }
          wanted = leases.map((l) => l.device);
          process.stderr.write(`mobilebridge run: leased ${wanted.join(', ')}\n`);
        }
        const routing = routeScenarios(selected.map((l) => ({ name: relative(process.cwd(), l.file) || l.file, platform: l.scenario!.platform })), await engine.lookupDevices(), wanted);
        if (!routing.ok) {
          if (routing.kind === 'usage') return refuse(EXIT.invalidInput, routing.message);
          return refuse(EXIT.device, withSilentSources(routing.message, engine.sourceProblems()));
        }
        const shape = { scenarios: selected.length, devices: routing.devices.length };
        const planned: PlannedRun[] = selected.map((l) => {
          const name = relative(process.cwd(), l.file) || l.file;
          return { name, folder: l.folder, options: { scenario: l.scenario!, scenarioDir: dirname(l.file), reset: flags.reset === true, targetWaitMs: targetWait, parameters: given.sources, onProgress: progressPrinter(name, shape) } };
        });
        const runs = await runOnDevices({ engine, outDir }, routing.devices, planned, interrupt.signal);
        const summaries = runs.map((r) => ({ scenario: r.name, scenario_id: r.document.scenario_id, device: r.document.metadata.device_id, status: r.document.status, result: r.resultFile, summary: r.document.summary }));
        // After a Ctrl-C the scenarios no device had taken yet have no result; the reports still name them.
        const started = new Set(runs.map((r) => r.name));
        const notStarted: NotStartedRun[] = planned.filter((p) => !started.has(p.name)).map((p) => ({ name: p.name, folder: p.folder, scenario: p.options.scenario, reason: interrupt.signal.aborted ? `not started: the run was cancelled (${stopName(interrupt.stoppedBy())}) before a device was free for it` : 'not started: no device of the run could take it' }));
        if (notStarted.length) process.stderr.write(`mobilebridge run: ${notStarted.length} of ${planned.length} scenarios not started: ${notStarted.map((n) => n.name).join(', ')}\n`);
        const unstarted = notStarted.length ? { not_started: notStarted.map((n) => n.name) } : {};
        try {
          await writeFileAtomic(paths.junit(outDir), junitXml(runs, notStarted));
          await writeFileAtomic(paths.html(outDir), await htmlReport(outDir, runs, notStarted));
        } catch (err) {
          // The result documents are written already; say which report is missing and why.
          const message = `the reports could not be written: ${(err as Error).message}`;
          process.stderr.write(`mobilebridge run: ${message}\n`);
          printJson({ ok: false, data: { runs: summaries, ...unstarted, junit: null, report: null }, error: { kind: 'internal', message }, exit_code: EXIT.internal });
          return EXIT.internal;
        }
        const worst = exitCodeFor(runs.map((r) => r.document));
        // A signal before any device took a scenario leaves no document to say cancelled.
        const code = worst === EXIT.cancelled || (interrupt.signal.aborted && notStarted.length) ? cancelCode() : worst;
        printJson({ ok: code === EXIT.ok, data: { runs: summaries, ...unstarted, junit: paths.junit(outDir), report: paths.html(outDir) }, exit_code: code });
        return code;
      } finally {
        for (const l of leases) l.release();
        await engine.close();
      }
    } finally {
      interrupt.dispose();
      await claim.release();
    }
  },
};

export default command;

import { readFileSync } from 'node:fs';
import { stat, unlink, writeFile } from 'node:fs/promises';
import { connectBridge } from '../../protocol/node.js';
import { bridgeFailureMessage, bridgeUrlProblem } from '../../protocol/bridge-problems.js';
import type { BridgeClient } from '../../protocol/client.js';
import { ConnectionClosedError } from '../../protocol/client-types.js';
import { isToolFailure } from '../../engine/errors.js';
import { isLeaseRequest, LEASE_ASK_HOLDER, LEASE_WAIT_LONGER } from '../../engine/leases/index.js';
import { canRun, htmlReport, junitXml, paths, routeScenarios, writeFileAtomic } from '../../engine/runner/index.js';
import type { ScenarioPlatform } from '../../engine/runner/routing.js';
import type { DeviceLookup } from '../../engine/device-ids.js';
import type { DeviceInfo } from '../../engine/types.js';
import { claimRunId } from '../../engine/runner/recover.js';
import type { NotStartedRun, ReportedRun } from '../../engine/runner/reports/types.js';
import { validateResultValue, type ResultDocument } from '../../validate/index.js';
import { EXIT, printJson, tokenFromFlags } from '../command.js';
import { refuse } from '../run-refusal.js';
import { progressPrinter, type ProgressLike } from '../run-progress.js';

export interface BridgeRunPlan {
  bridge: string;
  flags: Record<string, string | boolean>;
  /** Scenario files, already validated and sharded. */
  files: { file: string; name: string; folder?: string; scenario: NotStartedRun['scenario'] & NonNullable<ReportedRun['scenario']>; platform: string; parameters?: Record<string, string> }[];
  /** --devices entries (ids or any[:platform]); empty: the first ready device of the platform. */
  devices: string[];
  /** Lease when given (or when an entry is any:…): how long to wait in line. */
  leaseTimeoutMs: number | undefined;
  outDir: string;
  signal: AbortSignal;
  /** The exit code of a run the signal cancelled (130 for Ctrl-C, 143 for SIGTERM…), and how it names the signal. */
  cancelCode(): number;
  cancelledBy(): string;
  exitCodeFor(documents: ResultDocument[]): number;
}

const say = (line: string) => process.stderr.write(`mobilebridge run: ${line}\n`);

/**
 * `run --bridge ws://…`: the scenarios run on the bridge's devices (or, through an aggregator, its
 * peers'), leased first-come, first-served with devices.lease so CI jobs on many machines share one
 * lab. Result documents and reports are written here; screenshots stay on the host that ran them.
 */
export async function runThroughBridge(plan: BridgeRunPlan): Promise<number> {
  const urlProblem = bridgeUrlProblem(plan.bridge);
  if (urlProblem) {
    return refuse(EXIT.invalidInput, urlProblem);
  }
  let client: BridgeClient;
  try {
    client = await connectBridge(plan.bridge, { token: tokenFromFlags(plan.flags), client: 'mobilebridge-run', reconnect: false });
  } catch (err) {
    return refuse(EXIT.device, bridgeFailureMessage(plan.bridge, err, tokenFromFlags(plan.flags) !== undefined));
  }
  const onAbort = () => void client.requestRaw('scenarios.cancel', {}).catch(() => undefined);
  plan.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const platform = plan.files[0]?.platform ?? 'cross-platform';
    const { lookup } = await bridgeDevices(client);
    let devices = plan.devices;
    if (!devices.length) {
      // As a local run picks: the first usable device of each scenario's platform, so a folder of Android and iOS files runs on one of each.
      const routing = routeScenarios(plan.files.map((f) => ({ name: f.name, platform: f.platform as ScenarioPlatform })), lookup, []);
      if (!routing.ok) {
        const lease = [...new Set(plan.files.map((f) => (f.platform === 'ios' ? 'any:ios' : 'any:android')))].join(',');
        return refuse(EXIT.device, `on the bridge at ${plan.bridge}: ${routing.message}, or --devices ${lease} --lease-timeout 10m to wait for one`);
      }
      devices = routing.devices.map((d) => d.id);
    }
    if (devices.some(isLeaseRequest) || plan.leaseTimeoutMs !== undefined) {
      const leased: string[] = [];
      for (const entry of devices) {
        const wanted = isLeaseRequest(entry) ? entry.split(':')[1] || (platform === 'cross-platform' ? 'any' : platform) : undefined;
        const timeout = plan.leaseTimeoutMs ?? 0;
        if (timeout > 0) say(`waiting up to ${Math.round(timeout / 1000)} s for ${wanted ? `a free ${wanted} device` : entry} on the bridge`);
        const r = (await client.requestRaw('devices.lease', { ...(wanted ? { platform: wanted } : { device: entry }), timeout_ms: timeout })) as { device?: string; status?: string; message?: string };
        if (isToolFailure(r)) {
          // The bridge words it for protocol callers (timeout_ms); here the knob is a flag.
          const wait = timeout > 0 ? `raise --lease-timeout (it was ${Math.round(timeout / 1000)} s) to wait longer` : 'pass --lease-timeout 10m to wait in line';
          // `run` has no devices.unlock: the holder releases it, or a person takes control in the viewer.
          return refuse(EXIT.device, r.message.replaceAll(LEASE_WAIT_LONGER, wait).replaceAll(LEASE_ASK_HOLDER, 'ask the holder to release it, or take control of it in the viewer'));
        }
        leased.push(r.device!);
      }
      devices = leased;
      say(`leased ${devices.join(', ')}`);
    }

    // Notifications name the run, not the file: the started one ties its run_id to a scenario_id.
    const shape = { scenarios: plan.files.length, devices: devices.length };
    const fileOf = new Map(plan.files.map((f) => [f.scenario?.scenario_id, f.name]));
    const printers = new Map<string, (e: ProgressLike) => void>();
    client.on('scenario.progress', (e) => {
      const p = e as ProgressLike & { run_id?: string; scenario_id?: string };
      if (p.type === 'started' && p.run_id) printers.set(p.run_id, progressPrinter(fileOf.get(p.scenario_id ?? '') ?? p.scenario_id ?? p.run_id, shape));
      const print = p.run_id ? printers.get(p.run_id) : undefined;
      (print ?? progressPrinter(p.run_id ?? '', { scenarios: 1, devices: 1 }))(p);
    });
    const results: (ReportedRun & { resultFile: string })[] = new Array(plan.files.length);
    const taken = new Array<boolean>(plan.files.length).fill(false);
    // A device the bridge does not list by that id (a name it resolves itself) takes any scenario, as the bridge judges.
    const fits = (device: string, f: BridgeRunPlan['files'][number]) => {
      const info = lookup.find(device);
      return !info || canRun(f.platform as ScenarioPlatform, info);
    };
    let failed: string | undefined;
    // A run sent and its answer lost is not a refusal: it may have run, and nobody here knows how far.
    let lost: string | undefined;
    await Promise.all(
      devices.map(async (device) => {
        while (!plan.signal.aborted && !failed && !lost) {
          // Each device takes the next scenario of its platform, as runOnDevices does for a local run.
          const k = plan.files.findIndex((f, i) => !taken[i] && fits(device, f));
          if (k < 0) return;
          taken[k] = true;
          const f = plan.files[k];
          // 2.2 parameter values go along (the bridge masks the secrets in what it sends back).
          const given = f.parameters && Object.keys(f.parameters).length ? { parameters: f.parameters } : {};
          let r: ResultDocument & { status: string; message?: string };
          try {
            r = (await client.request('scenarios.run', { device, scenario: readFileSync(f.file, 'utf8'), ...given })) as typeof r;
          } catch (err) {
            if (!(err instanceof ConnectionClosedError)) throw err;
            lost ??= `${f.name} on ${device}: the connection to the bridge at ${plan.bridge} was lost while it ran (${err.message})`;
            return;
          }
          if (isToolFailure(r) && r.may_have_run) {
            lost ??= `${f.name} on ${device}: ${r.message}`;
            return;
          }
          if (isToolFailure(r) || !('run_id' in r)) {
            failed = `the bridge refused a run: ${f.name} on ${device}: ${(r as { message?: string }).message ?? JSON.stringify(r).slice(0, 300)}`;
            return;
          }
          const { result_file: _remote, ...document } = r as ResultDocument & { result_file?: string };
          // What a bridge (or a peer behind it) answers is not trusted: its run_id names a file here, its statuses go into the reports.
          const invalid = validateResultValue(document);
          if (invalid.length) {
            failed = `the bridge answered ${f.name} on ${device} with no valid result document (${invalid.slice(0, 3).map((e) => `${e.path || '/'}: ${e.message}`).join('; ')}): nothing was written for it`;
            return;
          }
          const resultFile = await writeBridgeResult(plan.outDir, document as ResultDocument);
          // The scenario titles the run and lists its steps never reached in the reports, as a local run's do.
          results[k] = { document: document as ResultDocument, name: f.name, scenario: f.scenario, folder: f.folder, resultFile };
        }
      }),
    );
    const runs = results.filter(Boolean);
    const summaries = runs.map((r) => ({ scenario: r.name, scenario_id: r.document.scenario_id, device: r.document.metadata.device_id, status: r.document.status, result: r.resultFile, summary: r.document.summary }));
    // The runs that finished before the refusal keep their result documents; stdout lists them.
    if (failed) return refuse(EXIT.device, failed, undefined, summaries);
    if (lost) return refuse(EXIT.device, lostRunMessage(lost), undefined, summaries);
    // After a Ctrl-C the scenarios not sent yet have no result; the reports still name them (as a local run does).
    const notStarted: NotStartedRun[] = plan.files
      .filter((_, k) => !results[k])
      .map((f) => ({ name: f.name, folder: f.folder, scenario: f.scenario, reason: `not started: the run was cancelled (${plan.cancelledBy()}) before a device of the bridge was free for it` }));
    if (notStarted.length) say(`${notStarted.length} of ${plan.files.length} scenarios not started: ${notStarted.map((n) => n.name).join(', ')}`);
    await writeFileAtomic(paths.junit(plan.outDir), junitXml(runs, notStarted));
    await writeFileAtomic(paths.html(plan.outDir), await htmlReport(plan.outDir, runs, notStarted));
    const code = plan.signal.aborted ? plan.cancelCode() : plan.exitCodeFor(runs.map((r) => r.document));
    printJson({
      ok: code === EXIT.ok,
      data: {
        runs: summaries,
        ...(notStarted.length ? { not_started: notStarted.map((n) => n.name) } : {}),
        junit: paths.junit(plan.outDir),
        report: paths.html(plan.outDir),
        bridge: plan.bridge,
      },
      exit_code: code,
    });
    return code;
  } finally {
    plan.signal.removeEventListener('abort', onAbort);
    await client.close();
  }
}

/**
 * The bridge's devices as a run routes over them. Ids are the bridge's own; one given as
 * `serial@source` also finds a phone the bridge lists bare, and the other way round.
 */
export async function bridgeDevices(client: BridgeClient): Promise<{ lookup: DeviceLookup; notes: string[] }> {
  const answer = (await client.request('devices.list', {})) as { devices?: DeviceInfo[]; notes?: string[] };
  const devices = Array.isArray(answer.devices) ? answer.devices : [];
  const notes = Array.isArray(answer.notes) ? answer.notes : [];
  const bare = (id: string) => id.split('@')[0];
  const find = (id: string) => devices.find((d) => d.id === id) ?? devices.find((d) => bare(d.id) === bare(id));
  return { lookup: { devices, find, key: (id) => find(id)?.id ?? id }, notes };
}

/** Devices to plan a run over (`run --list`), or why there are none to ask. */
export type DeviceList = { lookup: DeviceLookup; problems(): string[]; close(): Promise<void> } | { refused: string; code: number };

/** The bridge's devices for `--list --bridge`; a bridge URL or a bridge the run would refuse is refused the same way (exit 3, 2). */
export async function bridgeDeviceList(url: string, flags: Record<string, string | boolean>): Promise<DeviceList> {
  const urlProblem = bridgeUrlProblem(url);
  if (urlProblem) return { refused: urlProblem, code: EXIT.invalidInput };
  const token = tokenFromFlags(flags);
  let client: BridgeClient;
  try {
    client = await connectBridge(url, { token, client: 'mobilebridge-run', reconnect: false });
  } catch (err) {
    return { refused: bridgeFailureMessage(url, err, token !== undefined), code: EXIT.device };
  }
  try {
    const { lookup, notes } = await bridgeDevices(client);
    return { lookup, problems: () => notes, close: () => client.close() };
  } catch (err) {
    await client.close();
    return { refused: `the bridge at ${url} did not list its devices: ${(err as Error).message}`, code: EXIT.device };
  }
}

/**
 * Writes a bridge's result document under `<out>/results`, keeping its run id unless a run here has
 * it: ids are unique only in the bridge's own temporary folder, and the earlier document would be lost.
 */
async function writeBridgeResult(outDir: string, document: ResultDocument): Promise<string> {
  const claim = (await claimGivenRunId(outDir, document.run_id)) ?? (await claimRunId(outDir, new Date()));
  try {
    if (claim.runId !== document.run_id) {
      say(`the bridge's run id ${document.run_id} is taken here by another run: its result document is results/${claim.runId}.json`);
      document.run_id = claim.runId;
    }
    const file = paths.result(outDir, claim.runId);
    await writeFileAtomic(file, JSON.stringify(document, null, 2), outDir);
    return file;
  } finally {
    await claim.release();
  }
}

/** `runId` (a valid one: no separator can be in it) held for this run, or undefined when a run here has it already. */
async function claimGivenRunId(outDir: string, runId: string): Promise<{ runId: string; release: () => Promise<void> } | undefined> {
  const file = paths.result(outDir, runId);
  const lock = file.replace(/\.json$/, '.lock');
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' });
  } catch {
    return undefined;
  }
  const release = () => unlink(lock).catch(() => undefined);
  if (await stat(file).then(() => true, () => false)) {
    await release();
    return undefined;
  }
  return { runId, release };
}

/** A run whose answer never came: say that its outcome is unknown, and where it can be found out. */
function lostRunMessage(lost: string): string {
  return (
    `a run's outcome is unknown (not refused): ${lost}. It may have run in full, in part or not at all: ` +
    `before running it again, check the device, the bridge's log on the host that ran it, and its result document there ` +
    `(scenarios.run writes it after every step, in a mobilebridge-run-* folder of that host's temporary folder; ` +
    `the last 50 are kept). No result document was written here for it`
  );
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { failure, toFailure } from '../../engine/errors.js';
import { prepareOutput, runScenario, writeFileAtomic } from '../../engine/runner/index.js';
import { planRun, type RunPlan } from '../../engine/runner/flows.js';
import { unreadParameters } from '../../engine/runner/given-parameters.js';
import { missingParametersMessage } from '../../engine/runner/parameters.js';
import { envelope, loadScenario, StepSchema, validateScenarioValue, wordIssues, type Scenario } from '../../validate/index.js';
import { defineMethod, type MethodDef } from '../registry.js';
import { TEMP_RUN_PREFIX } from '../run-files.js';
import { agentOf, READ_ONLY_VERBS } from './agent.js';
import type { Session } from '../sessions.js';

/**
 * The refusal for `parameters` names nothing in the run would read, as `run --param` refuses them:
 * a misspelt `BASE_URL` would run the suite against its default and could pass.
 */
function unreadGiven(scenario: Scenario, folder: string, given: Record<string, string> | undefined): string | undefined {
  if (!given || !Object.keys(given).length) return undefined;
  let plan: RunPlan | undefined;
  try {
    plan = planRun(scenario, folder);
  } catch {
    // Validation read the flows a moment ago; one gone since is the run's to report.
  }
  return unreadParameters([{ scenario, plan }], Object.keys(given), { label: (name) => `parameter ${name}`, nobody: 'neither the scenario nor its flows declare', declaredBy: 'they declare' });
}

const howToGive = (name: string): string => `scenarios.run's "parameters": {"${name}": "..."}`;

/**
 * With `refuse_missing_parameters`, parameters the run would have no value for, its flows' too, as
 * a refusal before anything is locked or written, listing each with what a form needs to ask for it
 * (the viewer cannot read the flow files on the bridge's host). Without it the run ends `error`
 * before its first step, as documented.
 */
function missingRefusal(scenario: Scenario, folder: string, given: Record<string, string> | undefined): Record<string, unknown> | undefined {
  let plan: RunPlan;
  try {
    plan = planRun(scenario, folder, { given, howToGive });
  } catch {
    // A flow that cannot be expanded is the run's to report, with its reason.
    return undefined;
  }
  if (!plan.missing.length) return undefined;
  const missing = plan.missing.map((m) => {
    const declared = (m.flow ? plan.flows.get(m.flow.step)?.parameters : scenario.parameters)?.[m.name];
    return { name: m.name, secret: declared?.secret === true, ...(declared?.description ? { description: declared.description } : {}), ...(m.flow ? { flow_step: m.flow.step, flow: m.flow.file } : {}) };
  });
  return { ...failure('INVALID_PARAMETER', missingParametersMessage(plan.missing, howToGive)), missing_parameters: missing };
}

interface ActiveRun {
  run: string;
  device: string;
  session: Session;
  controller: AbortController;
}

/**
 * The fields of a step that only a scenario run gives a meaning (runner/step-runner): run live they
 * would be ignored, and a condition that would have skipped the step, or an `optional` that would have
 * let a failure pass, would be silently overruled. Their defaults (`optional: false`, `on_failure:
 * "fail"`) change nothing and pass.
 */
function runnerOnlyFields(step: Record<string, unknown>): string[] {
  const fields: string[] = [];
  if (step.condition !== undefined) fields.push('condition');
  if (step.optional === true) fields.push('optional');
  if (step.on_failure !== undefined && step.on_failure !== 'fail') fields.push('on_failure');
  if (step.retry_policy !== undefined) fields.push('retry_policy');
  if (step.sub_steps !== undefined) fields.push('sub_steps');
  return fields;
}

/**
 * verbs.run, scenarios.run and scenarios.cancel: the runner over the bridge. A scenario run holds
 * the device's lock for its whole length, so a viewer cannot disturb it unless it takes over
 * (devices.lock with takeover). A takeover cancels the run: its own calls do not ask the lock, and
 * a run that kept driving the device under the new holder's hands would undo what they do.
 */
export function runnerMethods(): MethodDef[] {
  const active = new Map<string, ActiveRun>();
  /** Each session's run on each device (`session\0device`), from its lock on, before it has a run id. */
  const starting = new Map<string, AbortController>();

  return [
    defineMethod('verbs.run', async (p, ctx) => {
      const parsed = v.safeParse(StepSchema, { id: 'live_step', description: 'live step', ...p.step });
      if (!parsed.success) {
        return failure('INVALID_PARAMETER', `the step is not valid: ${wordIssues(parsed.issues, 'the step').join('; ')}`);
      }
      const step = parsed.output;
      const runnerOnly = runnerOnlyFields(p.step as Record<string, unknown>);
      if (runnerOnly.length) {
        return failure(
          'INVALID_PARAMETER',
          `the step is not valid here: verbs.run runs its action once, live, and ${runnerOnly.map((f) => `"${f}"`).join(', ')} ${runnerOnly.length > 1 ? 'are' : 'is'} the runner's (a condition to skip it, retries, carrying on past a failure), which it would not apply; remove ${runnerOnly.length > 1 ? 'them' : 'it'}, or run the step in a scenario (scenarios.run)`,
        );
      }
      if (!READ_ONLY_VERBS.has(step.action)) {
        // A verb that acts while someone's finger is down would tap or type under a drag in progress.
        const refusal = ctx.lockRefusal(p.device, `verbs.run ${step.action}`) ?? ctx.engine.fingerRefusal(p.device, ctx.session.id);
        if (refusal) return refusal;
      }
      // Asked before the verb: its own first look would take the news, and a verb that failed
      // because someone else changed the screen must say so, as tools.call results do.
      const others = ctx.engine.othersActed(p.device, ctx.session.id);
      // Through the session's AgentSession, so a recording started on this session captures the verb.
      // ctx.signal: requests.cancel (an MCP client's cancellation through `mcp --bridge`) stops the verb where it waits.
      const outcome = await agentOf(ctx).run(p.device, step, ctx.signal);
      ctx.bridge.activity(p.device, ctx.session.participant, {
        verb: step.action,
        parameters: Object.fromEntries(Object.entries({ target: step.target, target_pattern: step.target_pattern, value: step.value }).filter(([, x]) => x !== undefined)),
        outcome: outcome.status === 'passed' ? { status: 'success', message: outcome.message } : { status: 'error', code: outcome.error?.code, message: outcome.message },
        durationMs: outcome.duration_ms,
        ...(outcome.resolved ? { resolved: outcome.resolved } : {}),
      });
      return { ...outcome, ...(others ? { others_acted: others } : {}) } as unknown as Record<string, unknown>;
    }),

    defineMethod('scenarios.run', async (p, ctx) => {
      const file = '<scenarios.run>';
      // The run reads flows (and reference screenshots) from the bridge's working folder: validated
      // against it, a missing or invalid flow answers the envelope, as `run` does, before any lock.
      const folder = process.cwd();
      const opts = { baseDir: folder, stack: [] };
      const loaded = typeof p.scenario === 'string' ? loadScenario(p.scenario, file, opts) : (() => {
        const report = validateScenarioValue(p.scenario, file, opts);
        return report.valid ? loadScenario(JSON.stringify(p.scenario, null, 2), file, opts) : { report };
      })();
      if (!loaded.scenario) return envelope(loaded.report) as unknown as Record<string, unknown>;
      const unread = unreadGiven(loaded.scenario, folder, p.parameters);
      if (unread) return failure('INVALID_PARAMETER', unread);
      const missing = p.refuse_missing_parameters ? missingRefusal(loaded.scenario, folder, p.parameters) : undefined;
      if (missing) return missing;
      // A lock (and an output folder) for a misspelled id would guard nothing and hide the typo;
      // the run itself would only fail at its first step, with the lock taken meanwhile.
      const devices = await ctx.engine.listDevices();
      // Any name of the phone (`serial@lab` of one listed `serial`); its lock is the listed id's.
      const listed = ctx.engine.ids.listedId(p.device);
      if (!devices.some((d) => d.id === listed)) return failure('DEVICE_NOT_FOUND', ctx.engine.deviceNotFoundMessage(p.device, devices));
      // The lock does not keep a session's second run off the device its first still drives (a viewer
      // retrying after its connection dropped and resumed): the two would act inside each other's steps.
      const key = `${ctx.session.id}\0${listed}`;
      const mine = starting.get(key);
      if (mine && !mine.signal.aborted) {
        const run = [...active.values()].find((r) => r.controller === mine)?.run;
        return failure('INVALID_PARAMETER', `a scenario run of this session is still in progress on ${listed}${run ? ` (${run})` : ''}: wait for its scenario.progress "finished" (or cancel it with scenarios.cancel) before starting another there`);
      }
      // Claimed before the first wait, so two requests sent at once cannot both pass the check above.
      const controller = new AbortController();
      starting.set(key, controller);
      const unclaim = () => starting.get(key) === controller && starting.delete(key);
      let outDir: string;
      try {
        // A caller's `out` is a folder written on its behalf: the allowed folders apply (SPEC §2).
        outDir = p.out === undefined ? mkdtempSync(join(tmpdir(), TEMP_RUN_PREFIX)) : await ctx.engine.allowedPaths.check(p.out, 'out');
        await prepareOutput(outDir);
      } catch (err) {
        unclaim();
        return toFailure(err);
      }
      // A device leased (locked) before the run stays leased after it: CI runs several scenarios in a row.
      const leased = ctx.bridge.locks.holder(p.device) === ctx.session;
      const lock = ctx.bridge.locks.acquire(p.device, ctx.session, false);
      if ('status' in lock) {
        unclaim();
        // Nothing ran: the temporary folder made for it would be left empty among the kept runs.
        if (p.out === undefined) rmSync(outDir, { recursive: true, force: true });
        return lock;
      }
      const stop = () => controller.abort();
      ctx.bridge.shutdownSignal.addEventListener('abort', stop, { once: true });
      // A run lives no longer than its session (bye, or the resume grace over), and keeps the
      // device locked until it has really stopped, not just until its session ended.
      ctx.session.onEnd(stop);
      // The lock says which scenario holds the device, so a viewer sees what Take control would cancel.
      ctx.bridge.locks.pin(p.device, ctx.session, leased, { scenario_id: loaded.scenario.scenario_id, name: loaded.scenario.name });
      let takenOver: string | undefined;
      const offTakeover = ctx.bridge.locks.onTakeover((device, previous, by) => {
        if (device !== listed || previous !== ctx.session || takenOver) return;
        takenOver = `${device} was taken over by ${by.client ? `session ${by.id} (${by.client})` : `session ${by.id}`} (devices.lock with takeover)`;
        controller.abort();
      });
      let entry: ActiveRun | undefined;
      try {
        const { document, resultFile } = await runScenario({
          engine: ctx.engine,
          device: p.device,
          scenario: loaded.scenario,
          scenarioDir: folder,
          outDir,
          origin: ctx.session.id,
          signal: controller.signal,
          // Only what the caller sends: the bridge's own environment (MB_PARAM_*) is not the caller's to read.
          parameters: { given: p.parameters, howToGive },
          onProgress: (event) => {
            if (event.type === 'started') {
              entry = { run: event.run_id, device: p.device, session: ctx.session, controller };
              active.set(event.run_id, entry);
              ctx.bridge.runFiles.add(event.run_id, outDir, event.scenario_id, p.out === undefined);
            }
            const shown = event.type === 'finished' && event.status === 'cancelled' && takenOver ? { ...event, summary: `${event.summary}: ${takenOver}` } : event;
            ctx.notify('scenario.progress', { device: p.device, ...shown } as Record<string, unknown>);
          },
        });
        if (document.status === 'cancelled' && takenOver) {
          // The runner's summary says cancelled; the caller and the file must also say why.
          document.summary = `${document.summary}: ${takenOver}`;
          await writeFileAtomic(resultFile, JSON.stringify(document, null, 2), outDir).catch((err: Error) => ctx.bridge.log(`bridge: could not add the takeover to ${resultFile}: ${err.message}`));
        }
        return { ...document, result_file: resultFile } as unknown as Record<string, unknown>;
      } finally {
        offTakeover();
        unclaim();
        if (entry) active.delete(entry.run);
        ctx.bridge.shutdownSignal.removeEventListener('abort', stop);
        const pin = ctx.bridge.locks.unpin(p.device, ctx.session);
        // The session's last run there frees the device; a lease outlives the runs only while its
        // holder is connected (locks go when their holder disconnects).
        if (pin.last && (!pin.leased || !ctx.session.connection)) ctx.bridge.locks.release(p.device, ctx.session, pin.leased ? 'its holder disconnected' : undefined);
      }
    }),

    defineMethod('scenarios.cancel', (p, ctx) => {
      // A session cancels its own runs; with no run id, all of them.
      const mine = [...active.values()].filter((r) => r.session === ctx.session && (p.run === undefined || r.run === p.run));
      // "Cancel all" with nothing running has nothing to do, which is no fault (a CI clean-up step
      // calls it blindly); a named run that is not running may be a typo, so that one is said.
      if (!mine.length && p.run !== undefined) return failure('INVALID_PARAMETER', `no run ${p.run} of this session is in progress`);
      for (const r of mine) r.controller.abort();
      return { cancelled: mine.map((r) => r.run) };
    }),
  ];
}

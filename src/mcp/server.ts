import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isToolFailure, toFailure, ToolError } from '../engine/errors.js';
import { compactListing } from '../engine/listing/compact.js';
import { callName } from '../engine/tools/params.js';
import type { UiElement } from '../engine/types.js';
import type { AssertionRequest } from '../engine/verbs/recording-types.js';
import type { AgentBackend } from './backend.js';
import { closest } from '../validate/suggest.js';
import { ArgumentError, checkArguments, type Args, type ArgumentSchema } from './arguments.js';
import { errorResult as rawErrorResult, json } from './results.js';
import type { ImageFormat } from './screenshot.js';
import { pinchTarget } from './pinch.js';
import { annotationsFor } from './annotations.js';
import { progressBeats } from './progress.js';
import { InvalidParams, onRequest } from './protocol-errors.js';
import { ignoreTaskAugmentation } from './tasks.js';
import { SCREENSHOT_OPTIONS, SESSION_TOOLS, type ToolSpec } from './session-tools.js';
import { inAgentTerms, ownToolName } from './tool-names.js';
import { lockInAgentTerms } from './refusals.js';
import { keepBaselines, saveToRefusal, saveToRoots } from './save-to.js';
import { DEVICE_PROPERTY, VERB_TOOLS } from './verb-tools.js';

export interface McpServerOptions {
  backend: AgentBackend;
  /** Also offer the raw mobile_* engine tools (for clients written against mobile-mcp). */
  engineTools?: boolean;
  /** Device used when a call names none (`mobilebridge mcp --device ID`). */
  defaultDevice?: string;
  /** Folders recording_stop may write to besides the working and temp directories. */
  allowPaths?: string[];
  version?: string;
  /** How often a call that carries a progress token is said to be still running (default 5000 ms). */
  progressEveryMs?: number;
  /** While the raw tools are left out of tools/list (the bridge did not list them), how often they are asked for again (default 5000 ms). */
  toolsRetryMs?: number;
}

const INSTRUCTIONS = `mobilebridge drives Android, iOS and virtual phones. Start with list_devices, then look with list_elements (exact, cheap) or take_screenshot, and act with the verbs (tap, type_text, swipe, scroll_to, wait_for, press_back, launch_app, …), which take a description of the element such as "the Sign in button" rather than coordinates. Use wait_for after actions that load. Check results with assert. To turn what you do into a replayable test, call recording_start first and recording_stop at the end.`;

const VERBS = new Map(VERB_TOOLS.map((t) => [t.name, t]));
const SESSION = new Map(SESSION_TOOLS.map((t) => [t.name, t]));

/**
 * The raw screenshot tool under MCP answers as take_screenshot does (a scaled image), so it takes
 * and lists the same options, and is held to them like every other tool here.
 */
const RAW_SCREENSHOT: ToolSpec['inputSchema'] = { type: 'object', properties: { device: DEVICE_PROPERTY, ...SCREENSHOT_OPTIONS }, required: ['device'], additionalProperties: false };

const RAW_SCREENSHOT_DESCRIPTION =
  'Capture the screen as an image scaled for a model (JPEG by default; max_size and format choose), not in device pixels: ' +
  'the text part gives the image size, the device size and the factor that maps image pixels to device pixels ' +
  '(device_x = image_x × factor). Multiply before passing a point to mobile_click_on_screen_at_coordinates, or take ' +
  'coordinates from mobile_list_elements_on_screen, which are device pixels.';

/** Fields of `assert` arguments that are not assertion fields. */
const NOT_ASSERTION = new Set(['device']);
/** The longest image side an agent gets, whatever max_size asks (see screenshot()). */
const AGENT_IMAGE_MAX_SIDE = 2000;

function str(args: Args, key: string, required = false): string | undefined {
  const v = args[key];
  if (v === undefined || v === null) {
    if (required) throw new ArgumentError(`"${key}" is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ArgumentError(`"${key}" must be a string (got ${typeof v})`);
  return v;
}

/** The MCP server over one backend. Connect it to a transport with `server.connect(transport)`. */
export function createMcpServer(options: McpServerOptions): Server {
  const { backend } = options;
  const errorResult: typeof rawErrorResult = (code, message, candidates, next) => rawErrorResult(code, inAgentTerms(lockInAgentTerms(message), options.engineTools === true), candidates, next);
  const allowed = saveToRoots(options.allowPaths ?? []);
  const server = new Server({ name: 'mobilebridge', version: options.version ?? '0.0.0' }, { capabilities: { tools: { listChanged: options.engineTools === true } }, instructions: INSTRUCTIONS });
  let retry: NodeJS.Timeout | undefined;
  /**
   * Clients list tools once: raw tools left out while the bridge could not list them are asked for again
   * until it can, and the client is then told the list changed (notifications/tools/list_changed).
   */
  function toolsLeftOut(): void {
    retry ??= setInterval(() => {
      // Closed (the CLI owns onclose): nobody is left to tell.
      if (!server.transport) {
        clearInterval(retry);
        retry = undefined;
        return;
      }
      void backend.engineTools().then((found) => {
        if (isToolFailure(found) || !retry) return;
        clearInterval(retry);
        retry = undefined;
        void server.sendToolListChanged().catch(() => undefined);
      });
    }, options.toolsRetryMs ?? 5000);
    retry.unref();
  }

  ignoreTaskAugmentation(server);

  server.oninitialized = () => {
    const client = server.getClientVersion()?.name;
    if (client) void backend.identify?.(client);
  };

  onRequest(server, 'tools/list', async (request) => {
    // Every tool comes in one page and no cursor is ever given out, so any cursor is one this server did not issue.
    if (request.params?.cursor !== undefined) throw new InvalidParams(`invalid cursor ${JSON.stringify(request.params.cursor)}: tools/list answers every tool in one page and issues no cursors`);
    const tools: Tool[] = [...VERB_TOOLS, ...SESSION_TOOLS].map((t) => ({ name: t.name, description: t.description, inputSchema: listed(t.inputSchema), annotations: annotationsFor(t.name) }));
    if (options.engineTools) {
      const found = await backend.engineTools();
      // Clients list tools once: failing the whole list would hide this server's own tools for the session too.
      if (isToolFailure(found)) {
        process.stderr.write(`mobilebridge mcp: the raw mobile_* tools are left out of tools/list until the bridge lists them: ${found.message}\n`);
        toolsLeftOut();
      }
      const engine = isToolFailure(found) ? [] : found;
      for (const t of engine) {
        // The draft's `$schema` is left out: some model providers refuse a tool schema carrying it.
        const { $schema: _draft, ...parameters } = t.parameters as Record<string, unknown>;
        const shot = t.name === 'mobile_take_screenshot';
        const inputSchema = shot ? listed(RAW_SCREENSHOT) : ({ ...parameters, type: 'object' } as Tool['inputSchema']);
        // Under MCP the raw screenshot answers as take_screenshot does: a scaled image, not device pixels.
        tools.push({ name: t.name, description: shot ? RAW_SCREENSHOT_DESCRIPTION : t.description, inputSchema, annotations: annotationsFor(t.name) });
      }
    }
    return { tools };
  });

  /**
   * A schema as tools/list shows it. With --device a call may leave "device" out, so it is not
   * listed as required there: a client that enforces `required` must not demand it. Without
   * --device it stays required, although one connected device is also taken (deviceOf).
   */
  function listed(schema: ToolSpec['inputSchema']): Tool['inputSchema'] {
    const fallback = options.defaultDevice;
    if (!fallback || !schema.properties.device) return schema as Tool['inputSchema'];
    const device = { ...(schema.properties.device as object), description: `${DEVICE_PROPERTY.description} Default: ${fallback} (mobilebridge mcp --device).` };
    return { ...schema, properties: { ...schema.properties, device }, required: (schema.required ?? []).filter((k) => k !== 'device') } as Tool['inputSchema'];
  }

  /** checkArguments, with "device" left to deviceOf, which fills in the default device or names the connected ones. */
  function check(schema: ArgumentSchema, given: Args, oneRequired?: string[]): Args {
    return checkArguments({ ...schema, required: schema.required?.filter((k) => k !== 'device'), oneRequired }, given);
  }

  async function deviceOf(args: Args): Promise<string> {
    const given = str(args, 'device') ?? options.defaultDevice;
    if (given) return given;
    const devices = await backend.listDevices();
    if (isToolFailure(devices)) throw new ToolError(devices.code, devices.message);
    if (devices.length === 1) return devices[0].id;
    // With none listed, a source that did not answer (no adb server, a peer bridge down) is what to fix.
    const silent = devices.length ? [] : (backend.sourceProblems?.() ?? []);
    const none = `no device is connected${silent.length ? `; not answering: ${silent.join('; ')}` : ''}`;
    throw new ArgumentError(`"device" is required: ${devices.length ? `connected devices are ${devices.map((d) => d.id).join(', ')}` : none}`);
  }

  /** `args` held to SCREENSHOT_OPTIONS by checkArguments: format in its own case, max_size a whole number in range. */
  async function screenshot(device: string, args: Args, signal: AbortSignal): Promise<CallToolResult> {
    const format = (args.format ?? 'jpeg') as ImageFormat;
    const asked = (args.max_size ?? undefined) as number | undefined;
    // Claude's API refuses any image side over 2000 px once a conversation holds more than 20 images, on
    // every later turn (the image stays in the history); the model downsamples above ~1568 px anyway.
    const maxSize = asked === undefined ? undefined : Math.min(asked, AGENT_IMAGE_MAX_SIDE);
    const s = await backend.screenshot(device, { format, maxSize }, signal);
    if (isToolFailure(s)) return errorResult(s.code, s.message);
    const note =
      `Screenshot of ${device}: image ${s.width}×${s.height} ${format.toUpperCase()} (${Math.round(s.bytes / 1024)} KB); device screen ${s.deviceWidth}×${s.deviceHeight} px. ` +
      `Scale factor ${s.factor}: device_x = image_x × ${s.factor}, device_y = image_y × ${s.factorY}. Verbs need no coordinates: describe the element instead.`;
    return { content: [{ type: 'image', data: s.data, mimeType: s.mimeType }, { type: 'text', text: note }] };
  }

  async function listElements(device: string, args: Args, signal: AbortSignal): Promise<CallToolResult> {
    // checkArguments held offset and limit to list_elements' schema (whole numbers in range).
    const page = { offset: args.offset as number | undefined, limit: args.limit as number | undefined, screen: str(args, 'screen') };
    const full = args.full === true;
    // Full objects are never paged: paging arguments with them would be dropped without a word.
    const paging = full ? (['limit', 'offset', 'screen'] as const).find((k) => args[k] !== undefined && args[k] !== null) : undefined;
    if (paging) throw new ArgumentError(`"${paging}" pages the compact listing, and full: true is never paged; leave out full for pages, or limit, offset and screen for every element with every field`);
    const result = await backend.callTool('mobile_list_elements_on_screen', { device }, signal);
    if (isToolFailure(result)) return errorResult(result.code, result.message);
    if (full) return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    try {
      const { elements, note } = result as { elements: UiElement[]; note?: string };
      // The device's own word on the listing (a tree cut at WDA's depth, an app error dialog) comes first.
      return { content: [{ type: 'text', text: JSON.stringify(compactListing(elements, page, note)) }] };
    } catch (err) {
      if (err instanceof RangeError) throw new ArgumentError(err.message);
      throw err;
    }
  }

  let engineToolNames: string[] | undefined;
  /** The raw tools offered, once known (undefined while the backend cannot list them: the call then says what is wrong). */
  async function engineNames(): Promise<string[] | undefined> {
    if (!engineToolNames) {
      const listed = await backend.engineTools();
      if (!isToolFailure(listed)) engineToolNames = listed.map((t) => t.name);
    }
    return engineToolNames;
  }

  /** `signal` aborts when the client cancels the call or the connection closes: a verb then stops where it waits. */
  async function call(name: string, given: Args, signal: AbortSignal): Promise<CallToolResult> {
    if (name === 'list_devices') {
      check(SESSION.get(name)!.inputSchema, given);
      const devices = await backend.listDevices();
      if (isToolFailure(devices)) return errorResult(devices.code, devices.message);
      // A source that did not answer lists nothing: the agent is told why a phone may be missing.
      const notes = backend.sourceProblems?.() ?? [];
      return json({ devices, ...(notes.length ? { notes } : {}) });
    }
    const verb = VERBS.get(name);
    if (verb) {
      const args = check(verb.inputSchema, given, verb.oneRequired);
      const outcome = await backend.runVerb(await deviceOf(args), verb.toStep(args), signal);
      if (isToolFailure(outcome)) return errorResult(outcome.code, outcome.message);
      if (outcome.status !== 'passed') return errorResult(outcome.error?.code ?? 'INTERNAL', outcome.message, outcome.error?.candidates);
      return json(outcome);
    }
    const spec = SESSION.get(name);
    if (spec) {
      const args = check(spec.inputSchema, given);
      return session(name, await deviceOf(args), args, signal);
    }
    if (options.engineTools && name.startsWith('mobile_')) {
      if (name === 'mobile_take_screenshot') {
        const args = check(RAW_SCREENSHOT, given);
        return screenshot(await deviceOf(args), args, signal);
      }
      const offered = await engineNames();
      if (offered && !offered.includes(name)) {
        const near = closest(name, offered);
        throw new InvalidParams(`unknown tool ${JSON.stringify(name)}; ${near ? `did you mean "${near}"? ` : ''}call tools/list for the tools offered`);
      }
      const result = await backend.callTool(name, given, signal);
      return isToolFailure(result) ? errorResult(result.code, result.message) : json(result);
    }
    if (!name.startsWith('mobile_')) {
      const near = closest(name, [...VERB_TOOLS, ...SESSION_TOOLS].map((t) => t.name));
      throw new InvalidParams(`unknown tool ${JSON.stringify(name)}; ${near ? `did you mean "${near}"? ` : ''}call tools/list for the tools offered`);
    }
    const own = ownToolName(name);
    const instead = own ? `call "${own}", which does the same here` : 'call tools/list for the tools offered';
    // Not through inAgentTerms, which would rewrite the raw name this message is about.
    throw new InvalidParams(`tool ${JSON.stringify(name)} is not offered: the raw mobile_* tools need \`mobilebridge mcp --engine-tools\`; ${instead}`);
  }

  async function session(name: string, device: string, args: Args, signal: AbortSignal): Promise<CallToolResult> {
    switch (name) {
      case 'list_apps': {
        const result = await backend.callTool('mobile_list_apps', { device }, signal);
        return isToolFailure(result) ? errorResult(result.code, result.message) : { content: [{ type: 'text', text: JSON.stringify(result) }] };
      }
      case 'list_elements':
        return listElements(device, args, signal);
      case 'pinch':
        return pinchTarget(backend, device, str(args, 'target', true)!, args.scale as number, errorResult, signal);
      case 'take_screenshot':
        return screenshot(device, args, signal);
      case 'assert': {
        const request = Object.fromEntries(Object.entries(args).filter(([k]) => !NOT_ASSERTION.has(k))) as AssertionRequest;
        if (typeof request.type !== 'string') throw new ArgumentError('"type" is required: one of the 27 assertion types, e.g. "element_exists"');
        const result = await backend.assert(device, request, signal);
        // A check that could not be made is the tool failing, which MCP says with isError; a failed check is an answer.
        if (!isToolFailure(result) && result.status === 'error') return { ...json(result), isError: true };
        if (!isToolFailure(result)) return json(result);
        // The assertion's fields are checked where it is evaluated (here or on the bridge); a wrong
        // one is this call's argument error, so it is said as every tool's is: "assert on DEVICE: …".
        return errorResult(result.code, result.code === 'INVALID_PARAMETER' ? `${callName(name, device)}: ${result.message}` : result.message);
      }
      case 'recording_start': {
        const appState = str(args, 'app_state');
        const result = await backend.startRecording({
          device,
          name: str(args, 'name', true)!,
          description: str(args, 'description'),
          app_package: str(args, 'app_package'),
          app_state: appState as never,
        }, signal);
        return isToolFailure(result) ? errorResult(result.code, result.message) : json(result);
      }
      case 'recording_stop': {
        const saveTo = str(args, 'save_to');
        const result = await backend.stopRecording(device);
        if (isToolFailure(result)) return errorResult(result.code, result.message);
        let saved: string | undefined;
        let baselineNotes: string[] | undefined;
        if (saveTo) {
          try {
            await saveToRefusal(saveTo, args.overwrite === true);
            saved = await allowed.check(saveTo, 'save_to');
            // The name as given: a trailing / (a folder) is refused there, and resolving would drop it.
            await allowed.write(saveTo, 'save_to', JSON.stringify(result.scenario, null, 2) + '\n', { createFolders: true });
            baselineNotes = await keepBaselines(result.scenario, saved, allowed, args.overwrite === true, (ref) => backend.liveBaseline?.(ref));
          } catch (err) {
            const e = toFailure(err);
            return errorResult(e.code, `${e.message} (the recording was stopped; the scenario follows)\n${JSON.stringify(result.scenario)}`);
          }
        }
        // A password typed while recording is a secret parameter the replay must be given (as the viewer's hint says).
        const declared = (result.scenario as { parameters?: Record<string, { secret?: boolean }> }).parameters ?? {};
        const secrets = Object.keys(declared).filter((n) => declared[n]?.secret).map((n) => ` --param ${n}=…`).join('');
        const replay = saved ? `mobilebridge run ${saved} --device ${device}${secrets}` : `save the scenario as a .json file, then: mobilebridge run FILE --device ${device}${secrets}`;
        baselineNotes ??= await keepBaselines(result.scenario, undefined, allowed, false, () => undefined);
        // A new summary: the stored answer is given again to a repeated stop, and must not collect these notes.
        const summary = baselineNotes.length ? { ...result.summary, skipped: [...result.summary.skipped, ...baselineNotes] } : result.summary;
        return json({ ...result, summary, ...(saved ? { saved_to: saved } : {}), replay });
      }
    }
    return errorResult('INTERNAL', `tool ${name} has no handler`);
  }

  onRequest(server, 'tools/call', async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Args;
    const stopBeats = progressBeats(extra, options.progressEveryMs ?? 5000);
    try {
      return await call(request.params.name, args, extra.signal);
    } catch (err) {
      if (err instanceof InvalidParams) throw err;
      if (err instanceof ArgumentError) return errorResult('INVALID_PARAMETER', `${callName(request.params.name, args.device ?? options.defaultDevice)}: ${err.message}`);
      if (err instanceof ToolError) return errorResult(err.code, err.message);
      return errorResult('INTERNAL', `${request.params.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      stopBeats();
    }
  });

  return server;
}

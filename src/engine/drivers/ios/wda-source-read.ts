import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { LackingRoutes } from './wda-lacking.js';
import { looksLikeXml, parseWdaXmlSource } from './wda-source-xml.js';
import { parseWdaSource, type WdaNode } from './wda-source.js';

/** How the missing JSON format is remembered among the routes a WDA lacks. */
const JSON_SOURCE = 'GET /source?format=json';

/** GET /source in the device's session, errors already translated to ToolErrors. */
export type WdaSourceGet = (path: string, ctx: CallContext) => Promise<unknown>;

/**
 * The app in front's accessibility tree: the JSON tree (format=json), which carries more (isFocused, rawIdentifier).
 * A WebDriverAgent that refuses the JSON format ("Unknown source format 'json'", FBDebugCommands.m) or answers it
 * with XML is read as XML from then on, so the JSON request is not repeated before each listing.
 */
export class WdaSourceReader {
  constructor(
    private readonly get: WdaSourceGet,
    private readonly lacking: LackingRoutes,
  ) {}

  async read(ctx: CallContext): Promise<WdaNode & { bundleId?: string }> {
    if (!this.lacking.has(JSON_SOURCE)) {
      try {
        const value = await this.get('/source?format=json', ctx);
        if (!looksLikeXml(value)) return parseWdaSource(value);
        this.lacking.add(JSON_SOURCE);
        return parseWdaXmlSource(value);
      } catch (err) {
        if (!(err instanceof ToolError && /Unknown source format/i.test(err.message))) throw err;
        this.lacking.add(JSON_SOURCE);
      }
    }
    return parseWdaXmlSource(await this.get('/source?format=xml', ctx));
  }
}

import { describeOnScreen } from '../../engine/verbs/describe-element.js';
import { defineMethod, type MethodDef } from '../registry.js';

/** elements.describe: the semantic target of one element, checked on the current screen (the viewer's inspector). */
export const inspectMethods: MethodDef[] = [
  defineMethod('elements.describe', (p, ctx) => describeOnScreen(ctx.engine, p.device, p.element, ctx.session.id)),
];

/** What the validator's walkers need to know of a valibot `variant` schema, built once per schema. */
import type { SchemaNode } from './schema-node.js';

export interface VariantIndex {
  /** Option by discriminator value. */
  byTag: Map<unknown, SchemaNode>;
  /** Every field of any option. */
  fields: Set<string>;
}

/** The variant an object was judged by: a key of another option is "not for this type", not unknown. */
export interface VariantContext {
  fields: Set<string>;
  /** How to name the option in a message, e.g. `type "element_text"`. */
  kind: string;
}

const indexes = new WeakMap<SchemaNode, VariantIndex>();

export function variantIndex(node: SchemaNode): VariantIndex {
  let index = indexes.get(node);
  if (!index) {
    const options = node.options as SchemaNode[];
    const key = node.key as string;
    index = {
      byTag: new Map(options.map((o) => [o.entries![key].literal, o])),
      fields: new Set(options.flatMap((o) => Object.keys(o.entries!))),
    };
    indexes.set(node, index);
  }
  return index;
}

/** The option `value` selects and the context to judge its keys in, or undefined when its tag selects none. */
export function variantOption(node: SchemaNode, value: Record<string, unknown>): { option: SchemaNode; context: VariantContext } | undefined {
  const { byTag, fields } = variantIndex(node);
  const key = node.key as string;
  const option = byTag.get(value[key]);
  return option && { option, context: { fields, kind: `${key} "${String(value[key])}"` } };
}

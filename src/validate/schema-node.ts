/**
 * The parts of a valibot schema object that the validator's own walkers read (structure.ts for
 * unknown keys, shape-accept.ts for the fast accept path). valibot's public types hide them; the
 * fields are those of valibot 1.x schema and action objects.
 */
export interface SchemaNode {
  kind: string;
  type: string;
  entries?: Record<string, SchemaNode>;
  options?: SchemaNode[] | readonly unknown[];
  key?: string | SchemaNode;
  literal?: unknown;
  wrapped?: SchemaNode;
  default?: unknown;
  fallback?: unknown;
  item?: SchemaNode;
  value?: SchemaNode;
  getter?: (input: unknown) => SchemaNode;
  /** Present on `v.pipe(...)`: the root schema first, then actions. */
  pipe?: SchemaNode[];
  /** Of validation actions (regex, min_length, integer, ...). */
  requirement?: unknown;
}

import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';

/** What a step or an assertion asks for. */
export interface ResolveRequest {
  /** Semantic description as a user would say it ("the Sign in button"). */
  description?: string;
  /** Regular expression over element text or label (SPEC §3 `target_pattern`), narrows or replaces the description. */
  pattern?: string;
  /**
   * `interact` (tap, type, …) prefers elements a user can act on, and treats a near-tie as an error;
   * `read` (assertions, captures) takes the first of equally good matches that carry the same text.
   */
  intent?: 'interact' | 'read';
  /**
   * With `read`: the caller judges the chosen element's own properties (its state, bounds, hint,
   * label, colour), not only the text it shows. A tie between elements showing the same text is
   * then not settled by reading order: the one actionable element among them is taken, else the
   * request is ambiguous.
   */
  inspect?: boolean;
  /** Screen size in pixels; position words use it. Defaults to the extent of the elements. */
  screen?: ScreenSize;
}

export interface Candidate {
  id: string;
  type: string;
  text: string;
  label: string | null;
  /** For an element without text or label (a list row): the first text drawn inside it, which is how a person names it. */
  shows?: string;
  score: number;
}

export interface ResolvedTarget {
  element: UiElement;
  /** 0..1: how well the element fits the description. */
  confidence: number;
  /** The best alternatives considered, best first (the chosen one included). */
  candidates: Candidate[];
}

export type NotFoundReason = 'absent' | 'ambiguous' | 'low_confidence' | 'bad_request';

export interface ResolveFailure {
  reason: NotFoundReason;
  /** Says what matched how well and how to describe the element better. */
  message: string;
  candidates: Candidate[];
}

export type Resolution = ({ ok: true } & ResolvedTarget) | ({ ok: false } & ResolveFailure);

/**
 * Turns a semantic description into one element of the current screen. The built-in resolver
 * is deterministic; a model-based one can implement this interface and be passed to the verbs
 * and the runner instead.
 */
export interface Resolver {
  readonly name: string;
  resolve(request: ResolveRequest, elements: readonly UiElement[]): Resolution | Promise<Resolution>;
  /** Every element that fits the description well enough, in reading order (counts, existence). */
  findAll(request: ResolveRequest, elements: readonly UiElement[]): UiElement[] | Promise<UiElement[]>;
}

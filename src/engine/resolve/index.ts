export type { Candidate, NotFoundReason, ResolveFailure, ResolveRequest, Resolution, ResolvedTarget, Resolver } from './types.js';
export { CONFIDENCE_THRESHOLD, DeterministicResolver, TIE_MARGIN } from './deterministic.js';
export { ResolutionCache, type CachedResolution } from './cache.js';
export { normalizeText, tokenize } from './normalize.js';
export { parseQuery, type Query } from './query.js';
export { isActionable } from './score.js';
export { readingOrder } from './geometry.js';
export { textInside } from './on-screen.js';

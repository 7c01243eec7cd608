/** How far a pinch may scale (end span / start span): the engine tool, the MCP tool and the viewer all hold to it. */
export const MIN_PINCH_SCALE = 0.2;
export const MAX_PINCH_SCALE = 5;

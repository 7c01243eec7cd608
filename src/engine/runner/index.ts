export { runScenario, toolVersion } from './scenario-runner.js';
export type { ProgressEvent, RunOptions, RunResult } from './types.js';
export { writeFileAtomic, newRunId, paths } from './result-file.js';
export { interpolate, coerce, type VariableValue } from './variables.js';
export { compare } from '../assertions/compare.js';
export { runOnDevices, shard, type PlannedRun } from './multi.js';
export { canRun, routeScenarios, type RunDevice } from './routing.js';
export { junitXml } from './reports/junit.js';
export { htmlReport } from './reports/html.js';

export { SourceSet, type DeviceSource, type SourceSetOptions, type SourceStatus } from './source-set.js';
export { createSourceSet, sourcesFromFlags, LOCAL_SOURCE, type SourcesSetup } from './setup.js';
export { parseAdbSource, parseWdaSource, type AdbSourceSpec, type WdaSourceSpec } from './source-spec.js';

/**
 * @adec/compiler — turns a world's sources into a checked model, a generated TypeScript
 * module, a self-contained bundle and its manifest. Guarantees to the runtime: a bundle is
 * only produced from a world without errors, implements ABI v2, and is reproducible.
 */
export { buildWorld } from './build-world.js';
export type { BuildArtifacts, BuildOptions, BuildPhase, BuildResult } from './build-world.js';
export { checkSources } from './check-sources.js';
export { bindWorld } from './check/bind-world.js';
export { SYSTEM_ATTRIBUTE_TYPES } from './check/check-context.js';
// The work_frame fields the language's `on STATUS { … }` and `expect work_frame` name are the ABI's.
export { WORK_FRAME_FIELDS, WORK_FRAME_LIST_FIELDS, WORK_FRAME_TEXT_FIELDS } from '@adec/abi';
export type { BoundDeclaration, BoundReference, BoundScope, BoundTarget, DeclarationKind, ScopeKind, WorldBindings } from './check/name-bindings.js';
export type { CheckResult } from './check-sources.js';
export { commentTexts, formatSource, MAX_LINE_WIDTH, type FormatResult } from './format/index.js';
export type { Manifest } from './manifest/index.js';
export * from './model/index.js';
export { isWorldLoadError, loadWorld, worldRelativePath } from './sources/load-world.js';
export type { WorldLoadError } from './sources/load-world.js';
export type { WorldSource, WorldSources } from './sources/world-sources.js';
export type { GeneratedModule, ModuleGenerator } from './generate/generate-and-verify.js';
export { COMPILER_VERSION } from './version.js';
export { explainCondition, type ConditionExplanation } from './explain/explain-condition.js';
export { BUILD_FILES, buildFiles, writeBuild } from './write-build.js';
export { compareWithRebuild, rebuildBundle } from './rebuild-bundle.js';
export type { BundleToRebuild, RebuildCode, RebuildResult } from './rebuild-bundle.js';
export { parseSourcesFile, serializeSourcesFile, SOURCES_FORMAT, sourcesFile } from './sources/sources-file.js';
export type { SourcesFile, SourcesFileEntry, SourcesRead } from './sources/sources-file.js';

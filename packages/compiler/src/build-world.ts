import { diagnostic, type Diagnostic, type Span } from '@adec/diagnostics';
import { bundleModule } from './bundle/index.js';
import { checkSources } from './check-sources.js';
import type { ModuleGenerator } from './generate/generate-and-verify.js';
import { generateLazily } from './generate/generate-lazily.js';
import { buildManifest, generateContextTypes, serializeManifest, sha256Hex, type Manifest } from './manifest/index.js';
import type { CheckedWorld } from './model/index.js';
import { compareSourcePaths, worldRelativePath } from './sources/load-world.js';
import { serializeSourcesFile, sourcesFile } from './sources/sources-file.js';
import type { WorldSource, WorldSources } from './sources/world-sources.js';
import { COMPILER_VERSION } from './version.js';

/** Everything `adec build` writes: the artifacts of one reproducible build. */
export interface BuildArtifacts {
  /** The generated TypeScript module (readable; what the bundle was built from). */
  readonly moduleSource: string;
  /** The self-contained script the runtime loads; `module_hash` is its sha256. */
  readonly bundle: string;
  readonly manifest: Manifest;
  readonly manifestJson: string;
  readonly contextTypes: string;
  /** sources.json: the world's files, so an approver can rebuild the bundle from them. */
  readonly sourcesJson: string;
}

export interface BuildResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly world?: CheckedWorld;
  /** Present exactly when the build succeeded. */
  readonly artifacts?: BuildArtifacts;
  /**
   * When code generation produced a module that fails its own checks (a bug in adec, not
   * in the world), the offending module is returned so it can be attached to a bug report.
   */
  readonly rejectedModuleSource?: string;
}

/**
 * The build phases, in order, for progress reporting. `generate` includes the generated
 * module's own checks (forbidden constructs and the TypeScript type check).
 */
export type BuildPhase = 'check' | 'generate' | 'bundle' | 'manifest';

export interface BuildOptions {
  readonly onPhase?: (phase: BuildPhase) => void;
  /** Generates and verifies the module; the default loads TypeScript on first use. */
  readonly generator?: ModuleGenerator;
}

/**
 * check → generate (ts-morph) → static and type checks of the generated module →
 * bundle (esbuild) → hash → manifest. Pure: reads nothing but `sources`, writes nothing;
 * the same sources and compiler version give byte-identical artifacts, in whatever order the
 * files are given (they are read in the order `loadWorld` lists them, which sources.json keeps).
 */
export async function buildWorld(given: WorldSources, options: BuildOptions = {}): Promise<BuildResult> {
  const sources = inBuildOrder(given);
  const phase = options.onPhase ?? (() => {});
  const generate = options.generator ?? generateLazily;
  phase('check');
  const checked = checkSources(sources);
  const world = checked.world;
  if (world === undefined) return { diagnostics: checked.diagnostics };

  const relativeSources = sources.files.map((file) => worldRelativePath(sources, file.path));
  phase('generate');
  const { source: moduleSource, problems } = await generate(world, { compilerVersion: COMPILER_VERSION, sources: relativeSources });
  if (problems.length > 0) {
    return {
      diagnostics: [...checked.diagnostics, internalError(firstSpan(sources), problems)],
      world,
      rejectedModuleSource: moduleSource,
    };
  }

  phase('bundle');
  const bundle = await bundleModule(moduleSource);
  // Loaded on use, like the generator: it parses with the TypeScript that generation loaded.
  const shapeProblems = (await import('./bundle/verify-bundle-shape.js')).verifyBundleShape(bundle, world);
  if (shapeProblems.length > 0) {
    return { diagnostics: [...checked.diagnostics, internalError(firstSpan(sources), shapeProblems)], world, rejectedModuleSource: moduleSource };
  }

  phase('manifest');
  const carried = sourcesFile(sources.files.map((file, index) => ({ path: relativeSources[index]!, text: file.text })));
  const manifest = buildManifest(world, {
    moduleHash: sha256Hex(bundle),
    sourceHash: carried.source_hash,
    compilerVersion: COMPILER_VERSION,
    sources: relativeSources,
    relativePath: (file) => worldRelativePath(sources, file),
  });
  return {
    diagnostics: checked.diagnostics,
    world,
    artifacts: {
      moduleSource,
      bundle,
      manifest,
      manifestJson: serializeManifest(manifest),
      contextTypes: generateContextTypes(world, COMPILER_VERSION),
      sourcesJson: serializeSourcesFile(carried),
    },
  };
}

function inBuildOrder(sources: WorldSources): WorldSources {
  const relative = (file: WorldSource) => worldRelativePath(sources, file.path);
  return { root: sources.root, files: [...sources.files].sort((a, b) => compareSourcePaths(relative(a), relative(b))) };
}

function internalError(span: Span, problems: readonly string[]): Diagnostic {
  return diagnostic(
    'ADEC9001',
    span,
    { problem: 'the generated module failed its own checks' },
    {
      notes: problems.slice(0, 10),
      help: 'this is a bug in adec, not in your world: please report it with the generated module',
    },
  );
}

function firstSpan(sources: WorldSources): Span {
  const file = sources.files[0]?.path ?? sources.root;
  return { file, offset: 0, endOffset: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };
}

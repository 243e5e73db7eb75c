/**
 * Approval by reproducible rebuild (ARCHITECTURE.md "Sign and approve"): the bundle's own
 * sources, built again by this compiler, must give exactly its bundle.js and manifest.json.
 * What that proves is that every byte the host will run is what the code generator makes of
 * the world: no hand-written JavaScript, no edited function, nothing injected, which is what
 * lets a host run the module in process on the approver's word (SECURITY.md, "Isolation").
 */
import { buildWorld, type BuildArtifacts } from './build-world.js';
import { parseSourcesFile, worldSourcesOf } from './sources/sources-file.js';
import { COMPILER_VERSION } from './version.js';

/** The bundle as it will be approved: the exact bytes of its files. */
export interface BundleToRebuild {
  readonly manifest: string;
  readonly bundle: string;
  /** sources.json, or undefined when the bundle carries none. */
  readonly sources: string | undefined;
  /** How diagnostics of the rebuild name the sources' directory, e.g. `build/sources.json`. */
  readonly sourcesName: string;
}

export type RebuildCode =
  | 'SOURCES_MISSING'
  | 'SOURCES_INVALID'
  | 'SOURCES_NOT_IN_MANIFEST'
  | 'COMPILER_VERSION_DIFFERS'
  | 'REBUILD_FAILED'
  | 'REBUILD_DIFFERS';

export type RebuildResult =
  | { readonly ok: true; readonly compiler: { readonly name: string; readonly version: string } }
  | { readonly ok: false; readonly code: RebuildCode; readonly message: string };

/**
 * Rebuilds `bundle` from the sources it carries and compares. Never throws on any bundle: each
 * reason a bundle is not what its sources make is a code and a message naming the file, and
 * for differing bytes the first place they differ.
 */
export async function rebuildBundle(bundle: BundleToRebuild): Promise<RebuildResult> {
  const { sourcesName } = bundle;
  if (bundle.sources === undefined) return refuse('SOURCES_MISSING', `\`${sourcesName}\` is missing: the bundle carries no sources to rebuild it from (build it with this adec)`);
  const sources = parseSourcesFile(bundle.sources);
  if (!sources.ok) return refuse('SOURCES_INVALID', `\`${sourcesName}\` ${sources.problem}`);
  const manifest = manifestFacts(bundle.manifest);
  if (manifest.sourceHash !== sources.sourceHash) {
    return refuse('SOURCES_NOT_IN_MANIFEST', `\`${sourcesName}\` holds sources \`${sources.sourceHash}\`, but manifest.json was built from \`${String(manifest.sourceHash)}\``);
  }
  if (manifest.compilerVersion !== COMPILER_VERSION) {
    return refuse(
      'COMPILER_VERSION_DIFFERS',
      `the bundle was built by adec ${String(manifest.compilerVersion)} and this is adec ${COMPILER_VERSION}: approve it with the compiler that built it`,
    );
  }
  const rebuilt = await buildWorld(worldSourcesOf(sources.files, sourcesName));
  if (rebuilt.artifacts === undefined) {
    const errors = rebuilt.diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0] === undefined ? 'no artifacts' : `${errors[0].span.file}:${errors[0].span.line}:${errors[0].span.column}: ${errors[0].code}: ${errors[0].message}`;
    return refuse('REBUILD_FAILED', `the sources in \`${sourcesName}\` do not build (${errors.length} errors), the first: ${first}`);
  }
  return compareWithRebuild(bundle, rebuilt.artifacts);
}

/** The bundle's bytes against a rebuild's: identical, or the first file and place they differ. */
export function compareWithRebuild(bundle: Pick<BundleToRebuild, 'manifest' | 'bundle'>, rebuilt: Pick<BuildArtifacts, 'bundle' | 'manifestJson'>): RebuildResult {
  for (const [name, carried, made] of [
    ['bundle.js', bundle.bundle, rebuilt.bundle],
    ['manifest.json', bundle.manifest, rebuilt.manifestJson],
  ] as const) {
    if (carried !== made) return refuse('REBUILD_DIFFERS', `${name} is not what its sources build: ${firstDifference(carried, made)}`);
  }
  return { ok: true, compiler: { name: 'adec', version: COMPILER_VERSION } };
}

function refuse(code: RebuildCode, message: string): RebuildResult {
  return { ok: false, code, message };
}

/** The two facts of a manifest the rebuild checks first; anything unreadable is `undefined`. */
function manifestFacts(text: string): { sourceHash: unknown; compilerVersion: unknown } {
  try {
    const manifest = JSON.parse(text) as { source_hash?: unknown; compiler?: { version?: unknown } } | null;
    return { sourceHash: manifest?.source_hash, compilerVersion: manifest?.compiler?.version };
  } catch {
    return { sourceHash: undefined, compilerVersion: undefined };
  }
}

/** Where two texts first differ, as a line and column of the carried text, and the lengths. */
function firstDifference(carried: string, made: string): string {
  let offset = 0;
  while (offset < carried.length && offset < made.length && carried[offset] === made[offset]) offset += 1;
  const before = carried.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const excerpt = (text: string): string => JSON.stringify(text.slice(offset, offset + 24));
  return `they differ from line ${line}, column ${column} (the bundle has ${excerpt(carried)}, the rebuild ${excerpt(made)}; ${carried.length} and ${made.length} characters)`;
}

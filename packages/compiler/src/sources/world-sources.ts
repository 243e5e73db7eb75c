/**
 * The source text of one world: its `.adec` files, named by the path diagnostics print.
 */
export interface WorldSource {
  /** Display path, e.g. `examples/benefits/rules.adec`. Manifests store it relative to the world. */
  readonly path: string;
  readonly text: string;
}

export interface WorldSources {
  /** The world directory as the user named it, e.g. `examples/benefits`. */
  readonly root: string;
  /** Files in byte order of their paths, so every build sees them in the same order. */
  readonly files: readonly WorldSource[];
}
